/**
 * The dashboard service's messages: the identities of its users and of operators.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Language } from './acquirer.js';
import { type CommandContract, MerchantId, SecretsRewrap } from './common.js';

/** What a dashboard user may do (D14): owner everything and the team; developer keys, webhooks, rates, payments, refunds; viewer reads. */
export const DashboardRole = Type.Union([Type.Literal('owner'), Type.Literal('developer'), Type.Literal('viewer')]);
export type DashboardRole = Static<typeof DashboardRole>;

/** The commands the dashboard service runs. */
export const dashboardCommands = {
  'dashboard.secrets.rewrap': SecretsRewrap('dashboard'),
  // Dashboard and console identities (D14, D15), kept by the dashboard service
  'user.create': {
    operator: true,
    service: 'dashboard',
    request: Type.Object({
      merchant_id: MerchantId,
      email: Type.String({ minLength: 3, maxLength: 254 }),
      role: DashboardRole,
      password: Type.Optional(Type.String({ writeOnly: true })),
    }),
    // D29: no setup_url for a person created with a password.
    reply: Type.Object({ user_id: Type.String({ pattern: '^usr_' }), setup_url: Type.Optional(Type.String()) }),
  },
  /** A merchant's owners, whom the notifier mails the account's notices (D20): each one's address and language, when the dashboard knows it. */
  'team.owners': {
    service: 'dashboard',
    request: Type.Object({ merchant_id: MerchantId }),
    reply: Type.Object({
      data: Type.Array(Type.Object({ person_id: Type.String(), email: Type.String(), language: Type.Optional(Language) })),
    }),
  },
  'operator.create': {
    operator: true,
    service: 'dashboard',
    request: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), password: Type.Optional(Type.String({ writeOnly: true })) }),
    reply: Type.Object({ operator_id: Type.String({ pattern: '^opr_' }), setup_url: Type.Optional(Type.String()) }),
  },
} as const satisfies Record<string, CommandContract>;
