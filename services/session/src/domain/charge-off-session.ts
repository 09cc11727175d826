/**
 * Charging a saved card without the buyer (D24): the session is made with
 * one attempt, started at once, and the adapter charges the customer's
 * off_session card (its binding, tii U). The outcome is recorded as any
 * attempt's (the adapter's answer, else its event, else the stuck-attempt
 * check), so a charge the acquirer did not answer stays PROCESSING until
 * reconciled, and the create answers the session as it then stands.
 */
import { newId, PAYMENT_METHOD_ID, type ApiContext, type Language } from '@gateway/contracts';
import { validationError } from '@gateway/problem';
import type { CustomerRow, PaymentMethodRow } from '../db/customer.repository.js';
import { accountOf } from './accounts.js';
import { cardExpired } from './customers.js';
import { adapterStep, attemptOf } from './checkout-session.js';
import type { SessionDeps } from './deps.js';
import type { SessionRow } from './session.js';

/** A charge without the buyer as its create checked it: the card, and who the buyer is by default. */
export interface OffSessionCard {
  card: PaymentMethodRow;
  buyer: { firstName: string; lastName: string; email: string };
}

/**
 * The customer's card a charge without the buyer may charge at `now`: one of
 * its saved cards, attached, saved for off_session use, not expired; each
 * refusal is the payment_method field's error.
 */
export async function offSessionCard(deps: Pick<SessionDeps, 'customers'>, customer: CustomerRow, paymentMethodId: string, now: Date): Promise<OffSessionCard> {
  const card = PAYMENT_METHOD_ID.test(paymentMethodId) ? await deps.customers.paymentMethod(customer.id, paymentMethodId) : undefined;
  if (!card) throw refused('not_found', "payment_method must be one of the customer's saved cards.");
  if (card.usage !== 'off_session') throw refused('off_session_not_allowed', 'This card was saved for payments the buyer makes on the page: it cannot be charged without the buyer.');
  if (cardExpired(card, now)) throw refused('card_expired', 'This saved card has expired.');
  const [firstName = '', ...rest] = (customer.name ?? '').trim().split(/\s+/);
  return { card, buyer: { firstName, lastName: rest.join(' '), email: customer.email ?? '' } };
}

/** Starts the session's one attempt and has the adapter charge `card`; the session as it then stands. */
export async function chargeOffSession(deps: SessionDeps, session: SessionRow, card: PaymentMethodRow, context: ApiContext): Promise<SessionRow> {
  const attemptId = newId('pa');
  const now = deps.clock();
  const started = await deps.attempts.start(session.id, session.checkout_link_id, attemptId, now, languageOf(session));
  // Another request (a replay) started it: it answers that one's outcome; this one answers the session as it stands.
  if (!started) return (await deps.sessions.find(accountOf(context), session.id)) ?? session;
  // Recorded as the hosted page's steps are: the adapter's answer, or, unanswered in time, its event or the stuck-attempt check.
  await adapterStep(deps, context.request_id, { session_id: started.id, link_id: started.checkout_link_id, attempt_id: attemptId }, started, () =>
    deps.adapter.call(
      'payment.charge_saved',
      {
        attempt: attemptOf(started, attemptId, false),
        payment_method_id: card.id,
        card_brand: card.card_brand,
        card_last_four: card.card_last_four,
        return_url: `${deps.publicBaseUrl}/`,
        ip: context.client_ip ?? '127.0.0.1',
      },
      { timeoutMs: deps.adapterTimeoutMs, correlationId: context.request_id },
    ),
  );
  // Read again with its attempts, for the answer.
  return (await deps.sessions.find(accountOf(context), session.id)) ?? started;
}

/** The language the session's mails are in: its own, else French (no page was seen). */
function languageOf(session: SessionRow): Language {
  return session.locale === 'auto' ? 'fr' : session.locale;
}

function refused(code: string, message: string) {
  return validationError([{ field: 'payment_method', code, message }]);
}
