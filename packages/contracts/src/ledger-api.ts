/**
 * The public API's reads of the ledger (D21): the balance transactions, the
 * balance and the daily report.
 */
import { Type, type Static } from '@sinclair/typebox';
import { CREATED_RANGE, DateTime, Id, PAGING } from './api-parts.js';

/** A signed TND amount: a refund is negative (D21). */
const SignedTnd = (description: string) => Type.String({ pattern: '^-?(0|[1-9][0-9]*)\\.[0-9]{3}$', description });

/** What moved the money (D21): a payment (with its fee), a refund, a refund given back when an operator resolved it as failed. */
export const BalanceTransactionType = Type.Union([Type.Literal('payment'), Type.Literal('refund'), Type.Literal('refund_reversal')]);
export type BalanceTransactionType = Static<typeof BalanceTransactionType>;

/** How the buyer paid the session the money moved for (D26): by card, or with the Flouci wallet. */
export const BalanceTransactionPaymentMethod = Type.Union([Type.Literal('card'), Type.Literal('flouci')], {
  description: "How the session's payment was made: card or flouci (the Flouci wallet); a refund and its reversal name their payment's method.",
});
export type BalanceTransactionPaymentMethod = Static<typeof BalanceTransactionPaymentMethod>;

/** One immutable money movement of a merchant and mode (D21). */
export const BalanceTransaction = Type.Object({
  id: Id('txn'),
  type: BalanceTransactionType,
  session_id: Id('ps'),
  source: Type.String({ description: 'The session (payment) or refund (refund, refund_reversal) that moved the money.' }),
  amount: SignedTnd('TND; negative for a refund.'),
  fee: SignedTnd('TND; the merchant pricing on the captured amount for a payment, 0.000 otherwise.'),
  net: SignedTnd('amount - fee, TND.'),
  currency: Type.Literal('TND'),
  created_at: DateTime,
  available_on: Type.String({ format: 'date', description: 'Africa/Tunis date from which it counts as available: created date + SETTLEMENT_DELAY_DAYS.' }),
  livemode: Type.Boolean(),
  payment_method: BalanceTransactionPaymentMethod,
});
export type BalanceTransaction = Static<typeof BalanceTransaction>;

export const BalanceTransactionList = Type.Object({ data: Type.Array(BalanceTransaction), has_more: Type.Boolean() });
export type BalanceTransactionList = Static<typeof BalanceTransactionList>;

/** Query of GET /gateway/balance_transactions/: closed, like every list's (issue 19). */
export const BalanceTransactionListQuery = Type.Object(
  {
    ...PAGING,
    type: Type.Optional(BalanceTransactionType),
    session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    ...CREATED_RANGE,
  },
  { additionalProperties: false },
);
export type BalanceTransactionListQuery = Static<typeof BalanceTransactionListQuery>;

/** GET /gateway/balance/ (D21): net sums of the balance transactions, by whether their available_on has come. */
export const Balance = Type.Object({
  available: SignedTnd('Net TND whose available_on is today (Africa/Tunis) or before.'),
  pending: SignedTnd('Net TND whose available_on is after today.'),
  currency: Type.Literal('TND'),
  livemode: Type.Boolean(),
});
export type Balance = Static<typeof Balance>;

/** Query of GET /gateway/reports/daily/: Africa/Tunis dates, both included, at most 366 days. */
export const DailyReportQuery = Type.Object(
  {
    from: Type.String({ format: 'date' }),
    to: Type.String({ format: 'date' }),
  },
  { additionalProperties: false },
);
export type DailyReportQuery = Static<typeof DailyReportQuery>;

/** One Africa/Tunis day of a merchant and mode: the sums of that day's balance transactions (D21). */
export const DailyReportDay = Type.Object({
  date: Type.String({ format: 'date' }),
  payments_count: Type.Integer({ minimum: 0 }),
  gross: SignedTnd('Sum of the payments, TND.'),
  fees: SignedTnd('Sum of the payment fees, TND.'),
  refunds: SignedTnd('Sum of the day\'s refunds (negative) and refund reversals (positive), TND.'),
  net: SignedTnd('Sum of every net of the day: gross - fees + refunds.'),
});
export type DailyReportDay = Static<typeof DailyReportDay>;

export const DailyReport = Type.Object({ data: Type.Array(DailyReportDay), livemode: Type.Boolean() });
export type DailyReport = Static<typeof DailyReport>;
