/**
 * The checkout service's messages: payment links (D19), which the API (and
 * the dashboard) create, read, list and deactivate. Their payments are
 * sessions the checkout service makes through session.create.
 */
import { Type } from '@sinclair/typebox';
import { PaymentLink, PaymentLinkList } from '../api.js';
import { ApiContext, type CommandContract } from './common.js';

const PaymentLinkRef = Type.Object({ context: ApiContext, payment_link_id: Type.String() });

/** The commands the checkout service runs. */
export const checkoutCommands = {
  'payment_link.create': { service: 'checkout', request: Type.Object({ context: ApiContext, body: Type.Unknown() }), reply: PaymentLink },
  'payment_link.get': { service: 'checkout', request: PaymentLinkRef, reply: PaymentLink },
  'payment_link.list': { service: 'checkout', request: Type.Object({ context: ApiContext, query: Type.Record(Type.String(), Type.Unknown()) }), reply: PaymentLinkList },
  'payment_link.deactivate': { service: 'checkout', request: PaymentLinkRef, reply: PaymentLink },
} as const satisfies Record<string, CommandContract>;
