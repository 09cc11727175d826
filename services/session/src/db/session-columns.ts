/** The columns a session is read with, shared by the repositories that answer sessions. */

/** Every column of a session row (SessionRow). */
export const COLUMNS = `id, merchant_id, livemode, merchant_reference, order_number, order_id, amount, original_amount,
  original_currency, rate, description, items, metadata, buyer_first_name, buyer_last_name, buyer_email,
  buyer_phone, return_url, cancel_url, webhook_url, max_attempts, status, expires_at, completed_at, created_at,
  checkout_link_id, checkout_token, checkout_expires_at, amount_refunded, merchant_name, attempts_count,
  last_failure_code, last_failure_message, locale, capture_method, amount_authorized, authorized_at, hold_expires_at, amount_captured,
  capturing_amount, capture_id, capture_key, payment_link, page_language, customer_id, save_card, payment_method_id, paid_with`;

/** COLUMNS of a query where the sessions table is `s`. */
export const SESSION_COLUMNS = COLUMNS.split(',')
  .map((column) => `s.${column.trim()}`)
  .join(', ');

/** The columns plus the session's attempts, oldest first, for a detail. */
export const DETAIL_COLUMNS = `${COLUMNS},
  (SELECT coalesce(json_agg(json_build_object(
     'id', a.id, 'attempt_number', a.attempt_number, 'status', a.status, 'payment_method_type', a.payment_method_type, 'card_brand', a.card_brand,
     'card_last_four', a.card_last_four, 'card_country', a.card_country, 'failure_code', a.failure_code,
     'failure_message', a.failure_message, 'fee_amount', a.fee_amount::text, 'net_amount', a.net_amount::text,
     'created_at', to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
   ) ORDER BY a.attempt_number), '[]'::json) FROM attempts a WHERE a.session_id = sessions.id) AS attempts`;
