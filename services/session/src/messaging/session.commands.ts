/** The session service's command queue: each command calls one use case. */
import type { CommandHandlers } from '@gateway/messaging';
import { cancelPaymentLinkSessions, cancelSession } from '../domain/cancel-session.js';
import { captureSession } from '../domain/capture-session.js';
import { cancelForBuyer, finishWalletPayment, payAfterChallenge, payAttempt, payWithWallet, viewForCheckout } from '../domain/checkout-session.js';
import { createSession } from '../domain/create-session.js';
import { createCustomer, deleteCustomer, getCustomer, listCustomers, listPaymentMethods, removePaymentMethod } from '../domain/customers.js';
import type { SessionDeps } from '../domain/deps.js';
import { checkCurrency, listRates, removeRate, setRate } from '../domain/exchange-rates.js';
import { getSession, getSessionForEvent } from '../domain/get-session.js';
import { issueCheckoutLink } from '../domain/issue-checkout-link.js';
import { listSessions } from '../domain/list-sessions.js';
import { recordRefund, type RefundRecordChange } from '../domain/record-refund.js';
import { readSessionStats } from '../domain/session-stats.js';

/** The command table; `refunds` is the change session.record_refund applies, the same the refund events apply. */
export function sessionCommands(deps: SessionDeps, refunds: RefundRecordChange): CommandHandlers {
  return {
    'session.create': async ({ context, body, payment_link }) => createSession(deps, context, body, payment_link),
    'session.charge': async ({ context, body }) => createSession(deps, context, body),
    'session.get': async ({ context, session_id }) => ({ body: await getSession(deps, context, session_id) }),
    'session.get_for_event': async ({ context, session_id }) => ({ body: await getSessionForEvent(deps, context, session_id) }),
    'session.list': async ({ context, query, page_size, payment_link, customer }) => ({ body: await listSessions(deps, context, query, page_size, { paymentLink: payment_link, customerId: customer }) }),
    'session.stats': async ({ context, query }) => ({ body: await readSessionStats(deps, context, query) }),
    'session.cancel': async ({ context, session_id }) => ({ body: await cancelSession(deps, context, session_id) }),
    'session.cancel_for_payment_link': async ({ context, payment_link }) => ({ body: { canceled: await cancelPaymentLinkSessions(deps, context, payment_link) } }),
    'session.capture': async ({ context, session_id, body }) => ({ body: await captureSession(deps, context, session_id, body) }),
    'session.issue_checkout': async ({ context, session_id }) => ({ status: 201, body: await issueCheckoutLink(deps, context, session_id) }),
    'customer.create': async ({ context, body }) => createCustomer(deps, context, body),
    'customer.get': async ({ context, customer_id }) => ({ body: await getCustomer(deps, context, customer_id) }),
    'customer.list': async ({ context, query }) => ({ body: await listCustomers(deps, context, query) }),
    'customer.delete': async ({ context, customer_id }, meta) => ({ body: await deleteCustomer(deps, context, customer_id, meta.correlationId) }),
    'payment_method.list': async ({ context, customer_id }) => ({ body: await listPaymentMethods(deps, context, customer_id) }),
    'payment_method.delete': async ({ context, customer_id, payment_method_id }, meta) => ({ body: await removePaymentMethod(deps, context, customer_id, payment_method_id, meta.correlationId) }),
    'checkout.view': async (ref) => ({ body: await viewForCheckout(deps, ref) }),
    'checkout.cancel': async (ref, meta) => ({ body: await cancelForBuyer(deps, ref, meta.correlationId) }),
    'attempt.pay': async (request, meta) => ({ body: await payAttempt(deps, request, meta.correlationId) }),
    'attempt.finish_3ds': async (request, meta) => ({ body: await payAfterChallenge(deps, request, meta.correlationId) }),
    'attempt.pay_wallet': async (request, meta) => ({ body: await payWithWallet(deps, request, meta.correlationId) }),
    'attempt.finish_wallet': async (request, meta) => ({ body: await finishWalletPayment(deps, request, meta.correlationId) }),
    'session.record_refund': async (refund, meta) => ({ body: { amount_refunded: await recordRefund(refunds, deps.refundRecords, refund, { correlationId: meta.correlationId, at: deps.clock() }) } }),
    'rate.set': async (command) => ({ body: await setRate(deps.rates, command) }),
    'rate.remove': async (command) => ({ body: await removeRate(deps.rates, command) }),
    'rate.check': async ({ context, currency }) => ({ body: await checkCurrency(deps.rates, context, currency) }),
    'rate.list': async (command) => ({ body: await listRates(deps.rates, command) }),
  };
}
