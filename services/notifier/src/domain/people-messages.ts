/** The wording of the mails to the people of the dashboard and the console (D20), in their languages; {placeholders} are filled (and escaped in HTML) by the templates. */
import type { Language } from '@gateway/i18n';

export interface PeopleMessages {
  greeting: string;
  footer: string;
  roles: Readonly<Record<'owner' | 'developer' | 'viewer', string>>;
  invitationSubject: string;
  invitationIntro: string;
  invitationAction: string;
  invitationExpiry: string;
  invitationIgnore: string;
  resetSubject: string;
  resetIntroDashboard: string;
  resetIntroOps: string;
  resetAction: string;
  resetExpiry: string;
  resetIgnore: string;
  endpointSubject: string;
  endpointIntro: string;
  endpointAfter: string;
  refundSubjectSucceeded: string;
  refundSubjectFailed: string;
  refundIntro: string;
  refundSucceeded: string;
  refundFailed: string;
  account: string;
  mode: string;
  testMode: string;
  liveMode: string;
  endpoint: string;
  address: string;
  disabledAt: string;
  refund: string;
  orderNumber: string;
  amount: string;
  outcome: string;
  outcomeSucceeded: string;
  outcomeFailed: string;
  date: string;
}

const fr: PeopleMessages = {
  greeting: 'Bonjour,',
  footer: 'Ce message est envoyé automatiquement ; merci de ne pas y répondre.',
  roles: { owner: 'propriétaire', developer: 'développeur', viewer: 'lecteur' },
  invitationSubject: 'Invitation au tableau de bord de {merchant}',
  invitationIntro: 'Vous êtes invité au tableau de bord de paiement de {merchant}, avec le rôle {role}.',
  invitationAction: 'Choisir mon mot de passe',
  invitationExpiry: 'Ce lien ne fonctionne qu’une fois, jusqu’au {expires} (heure de Tunis).',
  invitationIgnore: 'Si vous n’attendiez pas cette invitation, ignorez ce message.',
  resetSubject: 'Réinitialisation de votre mot de passe',
  resetIntroDashboard: 'Quelqu’un a demandé à réinitialiser le mot de passe du compte {email} sur le tableau de bord de paiement.',
  resetIntroOps: 'Quelqu’un a demandé à réinitialiser le mot de passe du compte {email} sur la console des opérations.',
  resetAction: 'Choisir un nouveau mot de passe',
  resetExpiry: 'Ce lien ne fonctionne qu’une fois, pendant une heure, jusqu’au {expires} (heure de Tunis).',
  resetIgnore: 'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste le même.',
  endpointSubject: 'Point de réception de webhooks désactivé',
  endpointIntro: 'Toutes les livraisons vers un point de réception de webhooks de votre compte ont échoué trop longtemps : la passerelle a cessé de lui envoyer des événements.',
  endpointAfter: 'Corrigez le récepteur, puis réactivez-le dans le tableau de bord (Développeurs, Webhooks). Les événements manqués ne sont renvoyés que si vous les rejouez.',
  refundSubjectSucceeded: 'Remboursement {refund} confirmé',
  refundSubjectFailed: 'Remboursement {refund} échoué',
  refundIntro: 'Un remboursement de votre compte attendait une confirmation ; notre équipe des opérations l’a traité.',
  refundSucceeded: 'Le remboursement est confirmé : l’acheteur est remboursé.',
  refundFailed: 'Le remboursement a échoué : le montant n’a pas été rendu à l’acheteur et peut être remboursé de nouveau.',
  account: 'Compte',
  mode: 'Mode',
  testMode: 'test',
  liveMode: 'production',
  endpoint: 'Point de réception',
  address: 'Adresse',
  disabledAt: 'Désactivé le',
  refund: 'Remboursement',
  orderNumber: 'Numéro de commande',
  amount: 'Montant',
  outcome: 'Résultat',
  outcomeSucceeded: 'Réussi',
  outcomeFailed: 'Échoué',
  date: 'Date',
};

const en: PeopleMessages = {
  greeting: 'Hello,',
  footer: 'This message is sent automatically; please do not reply.',
  roles: { owner: 'owner', developer: 'developer', viewer: 'viewer' },
  invitationSubject: 'Invitation to the {merchant} dashboard',
  invitationIntro: 'You are invited to the payments dashboard of {merchant}, as {role}.',
  invitationAction: 'Set my password',
  invitationExpiry: 'This link works once, until {expires} (Tunis time).',
  invitationIgnore: 'If you did not expect this invitation, ignore this mail.',
  resetSubject: 'Reset your password',
  resetIntroDashboard: 'Someone asked to reset the password of the account {email} on the payments dashboard.',
  resetIntroOps: 'Someone asked to reset the password of the account {email} on the operations console.',
  resetAction: 'Choose a new password',
  resetExpiry: 'This link works once, for one hour, until {expires} (Tunis time).',
  resetIgnore: 'If you did not ask for it, ignore this mail: your password stays as it is.',
  endpointSubject: 'Webhook endpoint disabled',
  endpointIntro: 'Every delivery to a webhook endpoint of your account failed for too long, so the gateway stopped sending it events.',
  endpointAfter: 'Fix the receiver, then enable it again in the dashboard (Developers, Webhooks). Events it missed are sent again only when you replay them.',
  refundSubjectSucceeded: 'Refund {refund} confirmed',
  refundSubjectFailed: 'Refund {refund} failed',
  refundIntro: 'A refund of your account was waiting for confirmation; our operations team has resolved it.',
  refundSucceeded: 'The refund is confirmed: the buyer is refunded.',
  refundFailed: 'The refund failed: the amount did not go back to the buyer, and can be refunded again.',
  account: 'Account',
  mode: 'Mode',
  testMode: 'test',
  liveMode: 'live',
  endpoint: 'Endpoint',
  address: 'URL',
  disabledAt: 'Disabled on',
  refund: 'Refund',
  orderNumber: 'Order number',
  amount: 'Amount',
  outcome: 'Outcome',
  outcomeSucceeded: 'Succeeded',
  outcomeFailed: 'Failed',
  date: 'Date',
};

const ar: PeopleMessages = {
  greeting: 'مرحبًا،',
  footer: 'أُرسلت هذه الرسالة آليًا؛ يُرجى عدم الرد عليها.',
  roles: { owner: 'مالك', developer: 'مطوّر', viewer: 'مطّلع' },
  invitationSubject: 'دعوة إلى لوحة تحكم {merchant}',
  invitationIntro: 'أنت مدعو إلى لوحة تحكم المدفوعات الخاصة بـ {merchant}، بدور {role}.',
  invitationAction: 'اختيار كلمة المرور',
  invitationExpiry: 'يعمل هذا الرابط مرة واحدة، حتى {expires} (بتوقيت تونس).',
  invitationIgnore: 'إذا لم تكن تنتظر هذه الدعوة، فتجاهل هذه الرسالة.',
  resetSubject: 'إعادة تعيين كلمة المرور',
  resetIntroDashboard: 'طلب أحدهم إعادة تعيين كلمة مرور الحساب {email} في لوحة تحكم المدفوعات.',
  resetIntroOps: 'طلب أحدهم إعادة تعيين كلمة مرور الحساب {email} في وحدة تحكم العمليات.',
  resetAction: 'اختيار كلمة مرور جديدة',
  resetExpiry: 'يعمل هذا الرابط مرة واحدة، لمدة ساعة، حتى {expires} (بتوقيت تونس).',
  resetIgnore: 'إذا لم تطلب ذلك، فتجاهل هذه الرسالة: تبقى كلمة مرورك كما هي.',
  endpointSubject: 'تعطيل نقطة استقبال Webhook',
  endpointIntro: 'فشلت كل الإرسالات إلى نقطة استقبال Webhook في حسابك لمدة طويلة، فتوقفت البوابة عن إرسال الأحداث إليها.',
  endpointAfter: 'أصلِح المستقبِل، ثم أعد تفعيلها في لوحة التحكم (المطوّرون، Webhooks). لا تُرسَل الأحداث التي فاتتها مجددًا إلا إذا أعدت إرسالها.',
  refundSubjectSucceeded: 'تأكيد الاسترداد {refund}',
  refundSubjectFailed: 'فشل الاسترداد {refund}',
  refundIntro: 'كان استرداد في حسابك ينتظر التأكيد؛ وقد عالجه فريق العمليات لدينا.',
  refundSucceeded: 'تم تأكيد الاسترداد: استردّ المشتري المبلغ.',
  refundFailed: 'فشل الاسترداد: لم يُعَد المبلغ إلى المشتري، ويمكن استرداده من جديد.',
  account: 'الحساب',
  mode: 'الوضع',
  testMode: 'تجريبي',
  liveMode: 'فعلي',
  endpoint: 'نقطة الاستقبال',
  address: 'العنوان',
  disabledAt: 'تاريخ التعطيل',
  refund: 'الاسترداد',
  orderNumber: 'رقم الطلب',
  amount: 'المبلغ',
  outcome: 'النتيجة',
  outcomeSucceeded: 'نجح',
  outcomeFailed: 'فشل',
  date: 'التاريخ',
};

export const PEOPLE_MESSAGES: Readonly<Record<Language, PeopleMessages>> = { fr, en, ar };
