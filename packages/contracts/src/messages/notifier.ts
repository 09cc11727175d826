/**
 * The notifier service's messages (D20): the commands that ask it to mail people,
 * and the merchant's settings of the mails it writes.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Language } from './acquirer.js';
import { type CommandContract, DateTime, MerchantId, Mode } from './common.js';

/**
 * A mail to a person of the dashboard or the console, asked by the dashboard
 * (D20). `reference` names the mail: the notifier writes one mail per kind and
 * reference, so a command sent again writes nothing more. `link` is the
 * one-use link the mail is for (a setup or a reset link, D14), which only the
 * mail carries.
 */
const PersonMail = {
  reference: Type.String({ pattern: '^[0-9A-Za-z_]{8,64}$' }),
  email: Type.String({ minLength: 3, maxLength: 254 }),
  language: Language,
  link: Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2000 }),
  expires_at: DateTime,
};

const MailQueued = Type.Object({ mail_id: Type.String(), queued: Type.Boolean({ description: 'false when the reference had its mail already' }) });
type MailQueued = Static<typeof MailQueued>;

/** Whether the buyers of a merchant's mode get receipts (D20: on unless the merchant turned them off in the dashboard's settings). */
const ReceiptSettings = Type.Object({ merchant_id: MerchantId, mode: Mode, receipts_enabled: Type.Boolean() });

/** The commands the notifier service runs. */
export const notifierCommands = {
  /** An invitation to a merchant's dashboard, with the new person's setup link (D14, D20). */
  'mail.invitation': {
    service: 'notifier',
    request: Type.Object({ ...PersonMail, merchant_id: MerchantId, merchant_name: Type.String({ maxLength: 200 }), role: Type.Union([Type.Literal('owner'), Type.Literal('developer'), Type.Literal('viewer')]) }),
    reply: MailQueued,
  },
  /** "Forgot password?": the one-use reset link of a person of `door` (D20). */
  'mail.password_reset': {
    service: 'notifier',
    request: Type.Object({ ...PersonMail, door: Type.Union([Type.Literal('dashboard'), Type.Literal('ops')]), merchant_id: Type.Optional(MerchantId) }),
    reply: MailQueued,
  },
  /** The merchant's receipts switch of one mode; the dashboard sends these for its signed-in user's own merchant. */
  'receipts.settings.get': { service: 'notifier', request: Type.Object({ merchant_id: MerchantId, mode: Mode }), reply: ReceiptSettings },
  'receipts.settings.set': { service: 'notifier', request: Type.Object({ merchant_id: MerchantId, mode: Mode, receipts_enabled: Type.Boolean() }), reply: ReceiptSettings },
} as const satisfies Record<string, CommandContract>;
