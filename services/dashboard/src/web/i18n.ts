/**
 * The dashboard's and console's two languages (D14): English, whose words are
 * the keys (tests find links and buttons by them), and French. A text missing
 * from French shows in English rather than not at all.
 */
export type Language = 'en' | 'fr';
export const LANGUAGES: readonly Language[] = ['en', 'fr'];
export const LANGUAGE_COOKIE = 'gw_lang';

const FRENCH: Readonly<Record<string, string>> = {
  Payments: 'Paiements',
  'API keys': 'Clés API',
  Webhooks: 'Webhooks',
  'Exchange rates': 'Taux de change',
  Team: 'Équipe',
  Security: 'Sécurité',
  'Audit log': "Journal d'audit",
  'Sign in': 'Se connecter',
  'Sign out': 'Se déconnecter',
  Email: 'E-mail',
  Password: 'Mot de passe',
  'New password': 'Nouveau mot de passe',
  'Set password': 'Définir le mot de passe',
  Reveal: 'Afficher',
  'Create key': 'Créer une clé',
  Revoke: 'Révoquer',
  'Create live key': 'Créer une clé live',
  Rotate: 'Renouveler',
  'Rotate secret': 'Renouveler le secret',
  Resend: 'Renvoyer',
  Refund: 'Rembourser',
  Amount: 'Montant',
  Currency: 'Devise',
  Rate: 'Taux',
  'Webhook URL': 'URL du webhook',
  Save: 'Enregistrer',
  Remove: 'Supprimer',
  Search: 'Rechercher',
  Filter: 'Filtrer',
  Status: 'Statut',
  From: 'Du',
  To: 'Au',
  'Any status': 'Tous les statuts',
  'Newer': 'Plus récents',
  'Older': 'Plus anciens',
  'Test mode': 'Mode test',
  'Live mode': 'Mode live',
  'Verification pending': 'Vérification en cours',
  'Live payments open once your business is verified.': 'Les paiements live ouvrent une fois votre entreprise vérifiée.',
  Created: 'Créé',
  Reference: 'Référence',
  Order: 'Commande',
  Buyer: 'Acheteur',
  Attempts: 'Tentatives',
  Refunds: 'Remboursements',
  'Webhook deliveries': 'Envois de webhooks',
  'No payments yet.': 'Aucun paiement pour le moment.',
  'Nothing here yet.': 'Rien pour le moment.',
  Reason: 'Motif',
  'Refunded': 'Remboursé',
  Code: 'Code',
  Continue: 'Continuer',
  Language: 'Langue',
  Role: 'Rôle',
  Invite: 'Inviter',
  'Change role': 'Changer le rôle',
  When: 'Quand',
  Who: 'Qui',
  What: 'Quoi',
  Outcome: 'Résultat',
  'From address': 'Depuis',
  Mode: 'Mode',
  'Failed only': 'Échecs seulement',
  Payload: 'Contenu envoyé',
  Response: 'Réponse',
  'Next retry': 'Prochain essai',
  'HTTP code': 'Code HTTP',
  Time: 'Heure',
  Event: 'Événement',
  Key: 'Clé',
  'Last four': 'Quatre derniers',
  Revoked: 'Révoquée',
  Active: 'Active',
  'Ends': 'Fin',
  'Two-step sign-in': 'Connexion en deux étapes',
  'Turn on': 'Activer',
  'Turn off': 'Désactiver',
  'Recovery codes': 'Codes de secours',
  Merchants: 'Marchands',
  'Manual refunds': 'Remboursements manuels',
  'Approve KYB': 'Approuver le KYB',
  Suspend: 'Suspendre',
  Reactivate: 'Réactiver',
  Limits: 'Limites',
  Fees: 'Frais',
  Terminal: 'Terminal',
  Resolve: 'Résoudre',
  'Something went wrong': 'Une erreur est survenue',
  'Back': 'Retour',
};

const DICTIONARIES: Readonly<Record<Language, Readonly<Record<string, string>>>> = { en: {}, fr: FRENCH };

/** The words of one language: `t('Payments')`. */
export type Translate = (text: string) => string;

export function translator(language: Language): Translate {
  const dictionary = DICTIONARIES[language];
  return (text) => dictionary[text] ?? text;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
