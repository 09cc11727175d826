/**
 * Every message that crosses the broker, defined once: commands (with their
 * replies) and events, each with a JSON Schema that both ends validate. Each
 * service's messages are in its own file; this registry combines them and
 * says who may send, publish and listen to what.
 */
import { type Static, type TSchema } from '@sinclair/typebox';
import { acquirerCommands, acquirerEvents } from './acquirer.js';
import { walletCommands, walletEvents } from './wallet.js';
import type { SecretKeeper, ServiceName } from '../services.js';
import { type BrokerPrincipal, type CommandContract, OPERATOR } from './common.js';
import { checkoutCommands } from './checkout.js';
import { dashboardCommands } from './dashboard.js';
import { ledgerCommands } from './ledger.js';
import { merchantCommands, merchantEvents } from './merchant.js';
import { notifierCommands } from './notifier.js';
import { refundCommands, refundEvents } from './refund.js';
import { sessionCommands, sessionEvents } from './session.js';
import { webhookCommands, webhookEvents } from './webhook.js';

export { ApiContext, Envelope, EXPORT_PAGE_SIZE, Mode, type BrokerPrincipal } from './common.js';
export { CheckoutStep, CheckoutView, PaymentMethodEventData, ReceiptFacts, SessionEventData, SessionEventPayload, SessionStats } from './session.js';
export { BrowserForm, BuyerContact, Language, PaymentMethodType, PaymentStep, ProbedAnswer, SavedCard, StartedAttempt, TerminalStatus, ThreeDSReturn } from './acquirer.js';
export { flouciKeyScope } from './wallet.js';
export { ApiKeySummary, AuditEntry, MerchantDetail, MerchantSummary } from './merchant.js';
export { Branding, BRAND_LOGO_MAX_BYTES } from './checkout.js';
export { DashboardRole } from './dashboard.js';

/** Every command, from the files of the services that run them. */
export const commands = {
  ...sessionCommands,
  ...acquirerCommands,
  ...walletCommands,
  ...refundCommands,
  ...webhookCommands,
  ...merchantCommands,
  ...dashboardCommands,
  ...ledgerCommands,
  ...checkoutCommands,
  ...notifierCommands,
} as const satisfies Record<string, CommandContract>;

/** The services that keep secrets encrypted (D17), and the command that re-wraps each one's data keys. */
export const SECRETS_REWRAP_COMMANDS = {
  'api-gateway': 'api_gateway.secrets.rewrap',
  'acquirer-adapter': 'acquirer.secrets.rewrap',
  'webhook-dispatcher': 'webhooks.secrets.rewrap',
  dashboard: 'dashboard.secrets.rewrap',
} as const satisfies Record<SecretKeeper, CommandType>;

export type CommandType = keyof typeof commands;

export type CommandRequest<C extends CommandType> = Static<(typeof commands)[C]['request']>;

export type CommandReply<C extends CommandType> = Static<(typeof commands)[C]['reply']>;

/**
 * The operator commands a merchant's dashboard user may have run, signed by the
 * dashboard for that user (D14). Each names the user's merchant in its data
 * (`merchant_id`), and the running service checks that whatever else it names
 * (a key, a delivery) is that merchant's: a user can never act on another
 * merchant. Every other operator command is for operators only.
 */
export const MERCHANT_USER_COMMANDS = [
  'merchant.get',
  'api_key.list',
  'api_key.create',
  'api_key.revoke',
  'api_key.reveal',
  'api_key.rotate',
  'rate.list',
  'rate.set',
  'rate.remove',
  'webhook_endpoint.show',
  'webhook_endpoint.provision',
  'webhook_endpoint.set_url',
  'webhook_endpoint.reveal_secret',
  'webhook_endpoint.rotate_secret',
  'webhook.attempt',
  'webhook.resend',
  'audit.list',
] as const satisfies readonly CommandType[];

/**
 * The operator commands the operations console may have run, signed by the
 * dashboard for the console operator who asked (D15): what its pages do, and
 * the merchant lookup of `user create`. A command signed with the dashboard's
 * key is held to these, or to MERCHANT_USER_COMMANDS for a merchant's user;
 * every other operator command (rewrapping secrets, creating merchants or
 * operators, revealing a merchant's keys...) takes an operator's own key.
 */
export const CONSOLE_COMMANDS = [
  'merchant.list',
  'merchant.get',
  'merchant.approve_kyb',
  'merchant.suspend',
  'merchant.reactivate',
  'limits.set',
  'fees.get',
  'fees.set',
  'terminal.get',
  'terminal.set',
  'refund.list_manual',
  'refund.resolve',
  'audit.list',
] as const satisfies readonly CommandType[];

/**
 * Who may send each command (D17). Every publisher stamps its messages with its
 * broker user (AMQP user_id, which RabbitMQ checks against the connection's
 * login), and a service's command server refuses a command from any other: a
 * broker user can put any message on any queue through the default exchange,
 * so the queue's permissions alone would let the CLI's credentials send an API
 * command with a forged merchant context. Operator commands come from the CLI
 * and are signed besides.
 */
export const commandSenders = {
  // checkout: a buyer's payment on a payment link's page (D19).
  'session.create': ['api-gateway', 'checkout'],
  'session.charge': ['api-gateway'],
  'session.get': ['api-gateway', 'refund', 'webhook-dispatcher', 'dashboard', 'ledger'],
  'session.get_for_event': ['refund'],
  'session.list': ['api-gateway', 'dashboard'],
  'session.stats': ['dashboard'],
  'session.cancel': ['api-gateway', 'dashboard'],
  // checkout: a payment link deactivated (D29).
  'session.cancel_for_payment_link': ['checkout'],
  // checkout: a payment link's currency must have a rate when the link is made (D29).
  'rate.check': ['checkout'],
  'session.issue_checkout': ['api-gateway'],
  // D24: the dashboard's Customers page runs the same use cases for a merchant's people.
  'customer.create': ['api-gateway'],
  'customer.get': ['api-gateway', 'dashboard'],
  'customer.list': ['api-gateway', 'dashboard'],
  'customer.delete': ['api-gateway', 'dashboard'],
  'payment_method.list': ['api-gateway', 'dashboard'],
  'payment_method.delete': ['api-gateway', 'dashboard'],
  'webhook.list_session': ['api-gateway', 'dashboard'],
  'webhook.list': ['api-gateway', 'dashboard'],
  // The dashboard's Webhooks page runs these use cases for a merchant's people (D14); it reads endpoints through the list, never one by one.
  'webhook_endpoint.create': ['api-gateway', 'dashboard'],
  'webhook_endpoint.list': ['api-gateway', 'dashboard'],
  'webhook_endpoint.get': ['api-gateway'],
  'webhook_endpoint.update': ['api-gateway', 'dashboard'],
  'webhook_endpoint.delete': ['api-gateway', 'dashboard'],
  'webhook_endpoint.roll_secret': ['api-gateway', 'dashboard'],
  'webhook_endpoint.replay': ['api-gateway', 'dashboard'],
  'checkout.view': ['checkout'],
  'checkout.cancel': ['checkout'],
  'attempt.pay': ['checkout'],
  'attempt.finish_3ds': ['checkout'],
  'attempt.pay_wallet': ['checkout'],
  'attempt.finish_wallet': ['checkout'],
  'payment.authorize': ['session'],
  'payment.charge_saved': ['session'],
  'payment.authorize_saved': ['session'],
  'payment.finish_3ds': ['session'],
  'payment.start_wallet': ['session'],
  // The wallet's notice reaches the checkout service's public route, which asks the adapter to verify (D26).
  'payment.verify': ['session', 'checkout'],
  'payment.check': ['session'],
  'payment.capture': ['session'],
  'terminal.check': ['session'],
  'refund.create': ['api-gateway', 'dashboard'],
  'session.capture': ['api-gateway', 'dashboard'],
  'refund.get': ['api-gateway', 'dashboard'],
  'refund.list_session': ['api-gateway', 'dashboard'],
  'refund.list': ['api-gateway', 'dashboard'],
  'ledger.list_transactions': ['api-gateway', 'dashboard'],
  'ledger.balance': ['api-gateway', 'dashboard'],
  'ledger.daily_report': ['api-gateway', 'dashboard'],
  // The dashboard's Payment links page runs these use cases for a merchant's people (D19), in the merchant's name as the API does.
  'payment_link.create': ['api-gateway', 'dashboard'],
  'payment_link.get': ['api-gateway', 'dashboard'],
  'payment_link.list': ['api-gateway', 'dashboard'],
  'payment_link.deactivate': ['api-gateway', 'dashboard'],
  // A merchant's branding and receipts switch: the dashboard's Settings page for its signed-in user's own merchant (the role is checked there); receipts show the branding.
  'branding.get': ['dashboard', 'notifier'],
  'branding.set': ['dashboard'],
  'branding.remove_logo': ['dashboard'],
  'receipts.settings.get': ['dashboard'],
  'receipts.settings.set': ['dashboard'],
  // D26: the Settings page's Flouci keys, for its signed-in owner's own merchant (the role is checked there).
  'wallet.settings.get': ['dashboard'],
  'wallet.settings.set': ['dashboard'],
  'session.record_refund': ['refund'],
  'payment.refund': ['refund'],
  'terminal.set': OPERATOR,
  'fees.set': OPERATOR,
  'refund.list_manual': OPERATOR,
  'refund.resolve': OPERATOR,
  'merchant.create': OPERATOR,
  'merchant.approve_kyb': OPERATOR,
  'merchant.suspend': OPERATOR,
  'merchant.reactivate': OPERATOR,
  'api_key.create': OPERATOR,
  'api_key.revoke': OPERATOR,
  'limits.set': OPERATOR,
  'rate.set': OPERATOR,
  'rate.remove': OPERATOR,
  'webhook_endpoint.provision': OPERATOR,
  'webhook_endpoint.set_url': OPERATOR,
  'webhook_endpoint.rotate_secret': OPERATOR,
  'webhook.resend': OPERATOR,
  'api_key.reveal': OPERATOR,
  'api_gateway.secrets.rewrap': OPERATOR,
  'acquirer.secrets.rewrap': OPERATOR,
  'webhooks.secrets.rewrap': OPERATOR,
  'dashboard.secrets.rewrap': OPERATOR,
  'audit.list': OPERATOR,
  'merchant.list': OPERATOR,
  'merchant.get': OPERATOR,
  'api_key.list': OPERATOR,
  'api_key.rotate': OPERATOR,
  'rate.list': OPERATOR,
  'fees.get': OPERATOR,
  'terminal.get': OPERATOR,
  'terminal.probe': OPERATOR,
  'webhook_endpoint.show': OPERATOR,
  'webhook_endpoint.reveal_secret': OPERATOR,
  'webhook.attempt': OPERATOR,
  'user.create': OPERATOR,
  'operator.create': OPERATOR,
  // D20: the dashboard asks the notifier to mail its people; the notifier asks it for a merchant's owners.
  'mail.invitation': ['dashboard'],
  'mail.password_reset': ['dashboard'],
  'team.owners': ['notifier'],
} as const satisfies Record<CommandType, readonly BrokerPrincipal[]>;

/** True for the commands only an operator may send: signed, checked and audited (D17). */
export function isOperatorCommand(type: CommandType): boolean {
  return (commands[type] as CommandContract).operator === true;
}

/** True for the operator commands that only read (see CommandContract.readOnly). */
export function isReadOnlyCommand(type: CommandType): boolean {
  return (commands[type] as CommandContract).readOnly === true;
}

/** The command queues of a service: `fast` for everything that answers at once, `slow` for what waits on the acquirer. */
export const COMMAND_LANES = ['fast', 'slow'] as const;
export type CommandLane = (typeof COMMAND_LANES)[number];

/** The lane (queue and prefetch at its service) command `type` takes: CommandContract.lane, fast when unsaid. */
export function commandLane(type: CommandType): CommandLane {
  return (commands[type] as CommandContract).lane ?? 'fast';
}

/** The lanes `service` serves: always the fast one, the slow one when some command of its is slow. */
export function commandLanesOf(service: ServiceName): readonly CommandLane[] {
  const types = Object.keys(commands) as CommandType[];
  return COMMAND_LANES.filter((lane) => lane === 'fast' || types.some((type) => commands[type].service === service && commandLane(type) === lane));
}

export const events = {
  ...sessionEvents,
  ...acquirerEvents,
  ...walletEvents,
  ...refundEvents,
  ...merchantEvents,
  ...webhookEvents,
} as const satisfies Record<string, TSchema>;

export type EventType = keyof typeof events;

export type EventData<E extends EventType> = Static<(typeof events)[E]>;

/**
 * Which services publish each event (through their outbox). Only they may
 * publish it on the events exchange (topic permissions), and consumers refuse
 * one that another broker user put on their queue through the default exchange.
 */
export const eventPublishers = {
  'session.canceled': ['session'],
  'session.succeeded': ['session'],
  'session.failed': ['session'],
  'session.expired': ['session'],
  'checkout.session.expired': ['session'],
  'session.authorized': ['session'],
  'session.hold_canceled': ['session'],
  'payment_method.attached': ['session'],
  'payment_method.detached': ['session'],
  'refund.created': ['refund'],
  'refund.updated': ['refund'],
  'payment.approved': ['acquirer-adapter'],
  'payment.declined': ['acquirer-adapter'],
  'payment.authorized': ['acquirer-adapter'],
  'payment.captured': ['acquirer-adapter'],
  'payment.capture_failed': ['acquirer-adapter'],
  'wallet.connected': ['acquirer-adapter'],
  'merchant.created': ['api-gateway'],
  'merchant.updated': ['api-gateway'],
  'merchant.suspended': ['api-gateway'],
  'merchant.reactivated': ['api-gateway'],
  'merchant.kyb_approved': ['api-gateway'],
  'api_key.revoked': ['api-gateway'],
  'webhook_endpoint.disabled': ['webhook-dispatcher'],
  // Every service that runs operator commands records them (the dashboard runs user.create and operator.create).
  'audit.recorded': ['api-gateway', 'session', 'acquirer-adapter', 'refund', 'webhook-dispatcher', 'dashboard'],
} as const satisfies Record<EventType, readonly ServiceName[]>;

/**
 * Events several services publish, each about itself: the data field naming
 * the publisher, which must be the service that sent it (an audit entry of one
 * service cannot be written by another).
 */
export const eventPublisherField: Partial<Record<EventType, string>> = { 'audit.recorded': 'service' };

/** The events merchants receive as webhooks (INTERFACE 6.1, D10, D11). */
export const WEBHOOK_EVENTS = [
  'session.authorized',
  'session.succeeded',
  'session.failed',
  'session.canceled',
  'session.expired',
  'checkout.session.expired',
  'refund.created',
  'refund.updated',
] as const satisfies readonly EventType[];

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** The events about a customer's saved cards merchants receive as webhooks (D24): their data is the payment method, not a session. */
export const PAYMENT_METHOD_EVENTS = ['payment_method.attached', 'payment_method.detached'] as const satisfies readonly EventType[];
export type PaymentMethodEventType = (typeof PAYMENT_METHOD_EVENTS)[number];

/**
 * The routing key an event is published under: its type, followed by
 * `.payment_link` for a webhook event (each is about a session) whose session
 * was made through a payment link (D19). The checkout counts only those, so
 * it binds only those (`session.succeeded.payment_link`) and is not woken by
 * every other payment; every other subscription binds both forms of what it
 * names (bindingKeys).
 */
export function eventRoutingKey(envelope: { readonly type: string; readonly data?: unknown }): string {
  if (!(WEBHOOK_EVENTS as readonly string[]).includes(envelope.type)) return envelope.type;
  const paymentLink = (envelope.data as { session?: { payment_link?: unknown } } | undefined)?.session?.payment_link;
  return typeof paymentLink === 'string' && paymentLink !== '' ? `${envelope.type}.${PAYMENT_LINK_SCOPE}` : envelope.type;
}

const PAYMENT_LINK_SCOPE = 'payment_link';

/**
 * The binding keys of a subscription to `pattern`: a webhook event's type, or
 * a wildcard pattern, with its payment-link form beside it; any other event
 * type (never scoped) or a payment-link form alone.
 */
export function bindingKeys(pattern: string): string[] {
  if (pattern === '#' || pattern.endsWith(`.${PAYMENT_LINK_SCOPE}`)) return [pattern];
  const wildcard = pattern.includes('*') || pattern.includes('#');
  return wildcard || (WEBHOOK_EVENTS as readonly string[]).includes(pattern) ? [pattern, `${pattern}.${PAYMENT_LINK_SCOPE}`] : [pattern];
}


interface ServiceTopology {
  /** Durable event subscriptions: routing-key patterns bound to the service's quorum queue. */
  readonly events: readonly string[];
  /** Per-replica subscriptions (an exclusive queue each), for caches every replica keeps. */
  readonly broadcasts: readonly string[];
  /** Bindings an earlier version made on the service's queue and this one does not: removed when the queue is prepared. */
  readonly retired?: readonly string[];
}

/** Which service listens to what, for every service with a broker user (the list of services, services.ts). Every service also has a command queue. */
export const topology: Readonly<Record<ServiceName, ServiceTopology>> = {
  // The webhook events feed the test-mode event streams of `gateway listen`, one exclusive queue per open stream.
  'api-gateway': { events: ['audit.recorded'], broadcasts: ['merchant.updated', 'api_key.revoked', ...WEBHOOK_EVENTS, ...PAYMENT_METHOD_EVENTS] },
  // merchant.suspended and merchant.reactivated: a suspended merchant's sessions take no payment.
  // wallet.connected: whether the hosted page offers Flouci in live mode (D26).
  session: {
    events: ['payment.approved', 'payment.declined', 'payment.authorized', 'payment.captured', 'payment.capture_failed', 'refund.created', 'refund.updated', 'merchant.suspended', 'merchant.reactivated', 'wallet.connected'],
    broadcasts: [],
  },
  // session.succeeded of a session made through a payment link (its routing key's scope, eventRoutingKey): the payment counts on the link (D19).
  checkout: { events: ['session.succeeded.payment_link'], broadcasts: [], retired: ['session.succeeded'] },
  // session.hold_canceled: the hold of a canceled or lapsed AUTHORIZED session is released here (D22).
  'acquirer-adapter': { events: ['session.hold_canceled', 'payment_method.detached'], broadcasts: [] },
  // A refund records the captured payment from the session it reads anyway: no event needed.
  refund: { events: [], broadcasts: [] },
  // merchant.created and merchant.kyb_approved: the merchant's test-mode and live-mode endpoints are provisioned here, the owner of endpoints.
  'webhook-dispatcher': { events: [...WEBHOOK_EVENTS, ...PAYMENT_METHOD_EVENTS, 'merchant.created', 'merchant.kyb_approved'], broadcasts: [] },
  // The merchant dashboard and the operations console: every read and change is a command to the owning service.
  dashboard: { events: [], broadcasts: [] },
  // D21: a payment's entry from session.succeeded (the captured amount and its fee), a refund's from refund.created, its reversal from refund.updated.
  ledger: { events: ['session.succeeded', 'refund.created', 'refund.updated'], broadcasts: [] },
  // D20: the buyer's receipts: a payment's from session.succeeded, a refund's once it has succeeded (refund.created, or refund.updated when an operator resolved it);
  // the owners' notices: an endpoint disabled (webhook_endpoint.disabled), a pending refund an operator resolved (refund.updated).
  notifier: { events: ['session.succeeded', 'refund.created', 'refund.updated', 'webhook_endpoint.disabled'], broadcasts: [] },
};
