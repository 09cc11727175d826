/** Words of every mail: the greeting (no one is named: a buyer's name is their own typing) and the footer. */
import { defineCatalogue } from '@gateway/i18n';

export const commonCatalogue = defineCatalogue('mails', {
  en: {
    greeting: 'Hello,',
    footer: 'This message is sent automatically; please do not reply.',
  },
  fr: {
    greeting: 'Bonjour,',
    footer: 'Ce message est envoyé automatiquement ; merci de ne pas y répondre.',
  },
  ar: {
    greeting: 'مرحبًا،',
    footer: 'أُرسلت هذه الرسالة آليًا؛ يُرجى عدم الرد عليها.',
  },
});
