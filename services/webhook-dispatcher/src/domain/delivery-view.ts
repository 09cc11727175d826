/** A delivery attempt as the API and the dashboard show it. */
import type { WebhookDelivery } from '@gateway/contracts';
import type { DeliveryRow } from '../db/delivery-history.repository.js';

/** A delivery record as the API shows it (INTERFACE 2.6). */
export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    session_id: row.session_id,
    event: row.event_type,
    event_id: row.event_id,
    url: row.url,
    attempt_number: row.attempt_number,
    status: row.status,
    http_status_code: row.http_status_code,
    response_time_ms: row.response_time_ms,
    error_message: row.error_message,
    next_retry_at: row.next_retry_at ? row.next_retry_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
  };
}
