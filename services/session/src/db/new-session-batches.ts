/**
 * The statement that inserts new sessions in groups (GroupCommit, packages/db):
 * every create is a session row and its first link, all or nothing (no event:
 * nothing consumes a session's creation, so none is published), and the creates asked for within one pass of the event loop go as
 * one statement over one JSON array of records (json_to_recordset): one
 * round trip and one commit for the lot, each session still inserted or not
 * on its own (ON CONFLICT DO NOTHING per row). Measured in BENCHMARKS.md.
 *
 * Two batches that insert the same merchant references (a merchant's
 * concurrent retries) in opposite orders would each wait for the other's
 * uncommitted row: each batch's rows go in the order of their idempotency key,
 * so two batches meet at their first common key and one simply waits.
 *
 * The text travels inside JSON, which PostgreSQL decodes: a lone UTF-16
 * surrogate (which JSON.stringify writes as an escape PostgreSQL refuses) is
 * sent as U+FFFD, which is what a text parameter holding it stores.
 */
import { GroupCommit, type Pool } from '@gateway/db';
import type { SessionRow } from '../domain/session.js';

/** The most creates in one statement; more wait for the next. */
const MAX_BATCH = 128;

/** The columns of one new session, its link and its outbox row, with their types in the statement's input. */
const COLUMNS = [
  ['id', 'text'],
  ['merchant_id', 'text'],
  ['livemode', 'boolean'],
  ['merchant_reference', 'text'],
  ['order_number', 'text'],
  ['order_id', 'text'],
  ['amount', 'numeric'],
  ['original_amount', 'numeric'],
  ['original_currency', 'text'],
  ['rate', 'numeric'],
  ['description', 'text'],
  ['items', 'json'],
  ['metadata', 'json'],
  ['buyer_first_name', 'text'],
  ['buyer_last_name', 'text'],
  ['buyer_email', 'text'],
  ['buyer_phone', 'text'],
  ['return_url', 'text'],
  ['cancel_url', 'text'],
  ['webhook_url', 'text'],
  ['max_attempts', 'smallint'],
  ['status', 'text'],
  ['expires_at', 'timestamptz'],
  ['created_at', 'timestamptz'],
  ['checkout_link_id', 'text'],
  ['checkout_token', 'text'],
  ['checkout_expires_at', 'timestamptz'],
  ['merchant_name', 'text'],
  ['locale', 'text'],
  ['capture_method', 'text'],
  ['payment_link', 'text'],
  ['customer_id', 'text'],
  ['save_card', 'text'],
  ['payment_method_id', 'text'],
] as const;

const SESSION_COLUMNS = COLUMNS.map(([name]) => name);

/**
 * Named, so each connection parses and plans it once. The creates travel as
 * one JSON array of records (JSON.stringify is native; pg's array literals
 * escape every element in JavaScript); a session's link is matched to it by
 * id, whatever order RETURNING gives.
 */
const STATEMENT_TEXT = `WITH input AS (
     SELECT * FROM json_to_recordset($1::json) AS t(${COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')})
   ), inserted AS (
     INSERT INTO sessions (${SESSION_COLUMNS.join(', ')})
     SELECT ${SESSION_COLUMNS.join(', ')} FROM input
     ON CONFLICT DO NOTHING
     RETURNING id
   ), link AS (
     INSERT INTO checkout_links (id, session_id, expires_at, created_at)
     SELECT input.checkout_link_id, input.id, input.checkout_expires_at, input.created_at FROM input JOIN inserted USING (id)
   )
   SELECT id FROM inserted`;

/** One create as a record of the statement's input. */
export interface NewSessionValues {
  readonly id: string;
  readonly [column: string]: unknown;
}

/** The statement's values of one create. */
export function newSessionValues(row: SessionRow): NewSessionValues {
  return {
    id: row.id,
    merchant_id: row.merchant_id,
    livemode: row.livemode,
    merchant_reference: row.merchant_reference,
    order_number: row.order_number,
    order_id: row.order_id,
    amount: row.amount,
    original_amount: row.original_amount,
    original_currency: row.original_currency,
    rate: row.rate,
    description: row.description,
    items: row.items,
    metadata: row.metadata,
    buyer_first_name: row.buyer_first_name,
    buyer_last_name: row.buyer_last_name,
    buyer_email: row.buyer_email,
    buyer_phone: row.buyer_phone,
    return_url: row.return_url,
    cancel_url: row.cancel_url,
    webhook_url: row.webhook_url,
    max_attempts: row.max_attempts,
    status: row.status,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
    checkout_link_id: row.checkout_link_id,
    checkout_token: row.checkout_token,
    checkout_expires_at: row.checkout_expires_at.toISOString(),
    merchant_name: row.merchant_name,
    locale: row.locale,
    capture_method: row.capture_method,
    payment_link: row.payment_link,
    customer_id: row.customer_id,
    save_card: row.save_card,
    payment_method_id: row.payment_method_id,
  };
}

/** Inserts new sessions in groups; each create is answered whether its session was inserted, once its group has committed. */
export class NewSessionBatches {
  private readonly group: GroupCommit<NewSessionValues, boolean>;

  constructor(pool: Pool) {
    this.group = new GroupCommit({
      name: 'session insert',
      maxBatch: MAX_BATCH,
      run: async (rows) => {
        const result = await pool.query<{ id: string }>({ name: 'session-insert-batch', text: STATEMENT_TEXT, values: [recordsJson(rows)] });
        const inserted = new Set(result.rows.map((r) => r.id));
        return rows.map((row) => inserted.has(row.id));
      },
    });
  }

  /** Inserts one create with whatever others are asked for in this pass; true when its session was inserted. */
  insert(values: NewSessionValues): Promise<boolean> {
    return this.group.add(values);
  }
}

/** The key rows are ordered by in a statement, the same in every batch: the idempotency key (merchant, mode, merchant_reference). */
function idempotencyKeyOf(row: NewSessionValues): string {
  return `${String(row['merchant_id'])}\u0000${String(row['livemode'])}\u0000${String(row['merchant_reference'])}`;
}

/** `rows` in key order, each key made once. */
function inKeyOrder(rows: readonly NewSessionValues[]): readonly NewSessionValues[] {
  if (rows.length < 2) return rows;
  const keyed = rows.map((row) => ({ row, key: idempotencyKeyOf(row) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map(({ row }) => row);
}

/** A surrogate without its other half: JSON.stringify escapes it (\udXXX), and PostgreSQL's json refuses the escape. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const LONE_SURROGATE_ESCAPE = /\\ud[89a-f]/i;

/** The statement's input: the rows in key order, as JSON PostgreSQL accepts. */
function recordsJson(rows: readonly NewSessionValues[]): string {
  const ordered = inKeyOrder(rows);
  const json = JSON.stringify(ordered);
  // Rare, so looked for in the output first: a well-formed pair is written as itself, never escaped.
  if (!LONE_SURROGATE_ESCAPE.test(json)) return json;
  return JSON.stringify(ordered, (_key, value: unknown) => (typeof value === 'string' ? value.replace(LONE_SURROGATE, '\ufffd') : value));
}
