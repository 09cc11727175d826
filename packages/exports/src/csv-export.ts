/**
 * A CSV export (D21), streamed: the list a kind names is read page after page
 * through the door's `fetchPage` (an RPC to the owning service), and each row
 * is written as the target takes it, so no more than two pages (and the
 * streams' own buffers) are ever held, however long the export. The first page is read before anything is written
 * (`openExport`): a refused filter is then still the list's own problem
 * document. A failure after that destroys the target, so that a client sees
 * an incomplete file as a broken transfer, never as a shorter file.
 */
import type { ServerResponse } from 'node:http';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { BalanceTransaction, EXPORT_PAGE_SIZE, Refund, SessionListItem } from '@gateway/contracts';
import { describeError, type Logger } from '@gateway/observability';
import { AppError, queryProblem, type FieldError } from '@gateway/problem';
import { columnsOf, rowOf, type Column, type JsonSchema } from './columns.js';
import { formulaSafe } from './formula-cells.js';

/** The exports of D21, by the name of their file. */
export const EXPORT_KINDS = ['sessions', 'refunds', 'balance_transactions'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export function isExportKind(value: unknown): value is ExportKind {
  return typeof value === 'string' && (EXPORT_KINDS as readonly string[]).includes(value);
}

/**
 * The list command behind each export, the schema of its items, the field the
 * next page starts after, and the most rows a page of it may hold: a refund
 * carries up to 25 KB of metadata (D6), so a page of 1,000 could pass a
 * broker's message limit (16 MB by default in RabbitMQ 4).
 */
export const EXPORTS = {
  sessions: { command: 'session.list', item: SessionListItem, cursor: 'id', maxPageSize: EXPORT_PAGE_SIZE },
  refunds: { command: 'refund.list', item: Refund, cursor: 'refund_id', maxPageSize: 250 },
  balance_transactions: { command: 'ledger.list_transactions', item: BalanceTransaction, cursor: 'id', maxPageSize: EXPORT_PAGE_SIZE },
} as const satisfies Record<ExportKind, { command: string; item: JsonSchema; cursor: string; maxPageSize: number }>;

/** What a door sends for one page: the list command's request without its context. */
export interface PageRequest {
  /** The export's filters, and `starting_after` from the second page on. */
  query: Record<string, unknown>;
  /** Replaces the list's `limit` (at most EXPORT_PAGE_SIZE). */
  page_size: number;
}

/** One page of a list, as every list command answers. */
export interface Page {
  data: readonly unknown[];
  has_more: boolean;
}

/** Reads one page: `rpc.call(EXPORTS[kind].command, { context, ...request })`'s body. A refusal rejects with the AppError. */
export type FetchPage = (request: PageRequest) => Promise<Page>;

export interface ExportOptions {
  /** Rows read per page; EXPORT_PAGE_SIZE (1,000) when not given, at most the kind's maxPageSize. */
  pageSize?: number;
}

/** `Content-Type` of every export (D21). */
const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/**
 * The paging parameters of the lists, which an export does not take: it lists
 * every matching row. Refused as the list refuses an unknown filter.
 */
const PAGING_PARAMETERS: readonly string[] = ['limit', 'starting_after', 'ending_before'];

/** Columns by kind, derived once. */
const COLUMNS = new Map<ExportKind, readonly Column[]>();

/** The columns of an export: the JSON field names of its item schema, in schema order (columns.ts). */
export function exportColumns(kind: ExportKind): readonly Column[] {
  let columns = COLUMNS.get(kind);
  if (!columns) {
    columns = columnsOf(EXPORTS[kind].item);
    COLUMNS.set(kind, columns);
  }
  return columns;
}

/**
 * The response headers of an export: CSV in UTF-8, a download named after
 * the kind, the mode and the UTC date (`sessions-test-2026-11-30.csv`), and
 * kept by no cache.
 */
export function exportHeaders(kind: ExportKind, livemode: boolean, now: Date = new Date()): Record<string, string> {
  return {
    'Content-Type': CSV_CONTENT_TYPE,
    'Content-Disposition': `attachment; filename="${exportFileName(kind, livemode, now)}"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
}

/** `<kind>-<test|live>-<UTC date>.csv`. */
export function exportFileName(kind: ExportKind, livemode: boolean, now: Date = new Date()): string {
  return `${kind}-${livemode ? 'live' : 'test'}-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * Starts an export: checks the query and reads the first page, writing
 * nothing. Rejects as the list does (a validation-error naming every bad
 * field, a paging parameter among them); the door answers that as any
 * refused call. Then the door sends its headers and calls `writeTo`.
 */
export async function openExport(kind: ExportKind, query: Record<string, unknown>, fetchPage: FetchPage, options: ExportOptions = {}): Promise<CsvExport> {
  const asked = options.pageSize ?? EXPORT_PAGE_SIZE;
  if (!Number.isInteger(asked) || asked < 1 || asked > EXPORT_PAGE_SIZE) throw new RangeError(`pageSize must be an integer from 1 to ${EXPORT_PAGE_SIZE}.`);
  const pageSize = Math.min(asked, EXPORTS[kind].maxPageSize);
  const paging: FieldError[] = PAGING_PARAMETERS.filter((field) => query[field] !== undefined).map((field) => ({
    field,
    code: 'invalid',
    message: `${field} is not a parameter of an export, which lists every matching row.`,
  }));
  const filters = Object.fromEntries(Object.entries(query).filter(([field]) => !PAGING_PARAMETERS.includes(field)));
  let first: Page;
  try {
    // With a paging parameter the export is refused anyway: the list is asked only to check the filters too.
    first = await fetchPage({ query: filters, page_size: paging.length > 0 ? 1 : pageSize });
  } catch (err) {
    if (paging.length > 0 && err instanceof AppError && err.code === 'validation-error') throw queryProblem([...paging, ...err.errors], query);
    throw err;
  }
  if (paging.length > 0) throw queryProblem(paging, query);
  return new CsvExport(kind, filters, first, fetchPage, pageSize);
}

/** An export whose first page has been read; `writeTo` writes it all. */
export class CsvExport {
  readonly columns: readonly Column[];
  private written = 0;
  private used = false;

  /** Use openExport. */
  constructor(
    readonly kind: ExportKind,
    private readonly filters: Record<string, unknown>,
    private readonly first: Page,
    private readonly fetchPage: FetchPage,
    private readonly pageSize: number,
  ) {
    this.columns = exportColumns(kind);
  }

  /** Rows handed to the CSV writer so far: how far a failed export got, for its log line. */
  get rows(): number {
    return this.written;
  }

  /**
   * Writes the header row, then every row, page after page, as fast as
   * `target` takes them, and ends `target`. Rejects when a page cannot be
   * read or the target fails or closes early; `target` is destroyed then
   * (an HTTP answer is cut off, not ended). Once only.
   */
  async writeTo(target: Writable): Promise<{ rows: number }> {
    if (this.used) throw new Error('An export is written once.');
    this.used = true;
    const csv = stringify({
      header: true,
      columns: this.columns.map((column) => column.name),
      // RFC 4180: CRLF after every record; fields with a comma, a quote or a line break quoted, quotes doubled.
      record_delimiter: 'windows',
      // Also any lone CR or LF: given a record_delimiter, csv-stringify otherwise quotes only a field holding the whole CRLF.
      quote_record_delimiter: true,
      // D21 and D29: formulaSafe neutralises every cell before it is written (records), after leading spaces and format characters too.
      escape_formulas: false,
    });
    await pipeline(Readable.from(this.records(), { objectMode: true, highWaterMark: 64 }), csv, target);
    return { rows: this.written };
  }

  /**
   * The rows, read a page ahead: the next page is asked for while this one
   * is written, so at most two pages are held. Stopped early (the target
   * failed), it asks for nothing more.
   */
  private async *records(): AsyncGenerator<string[]> {
    let page = this.first;
    for (;;) {
      const next = page.has_more ? this.pageAfter(page) : undefined;
      // Awaited below; until then a failure must not count as unhandled (the target may fail first).
      next?.catch(() => undefined);
      for (const item of page.data) {
        this.written += 1;
        yield rowOf(this.columns, item).map(formulaSafe);
      }
      if (!next) return;
      page = await next;
    }
  }

  private async pageAfter(page: Page): Promise<Page> {
    const last = page.data.at(-1) as Record<string, unknown> | undefined;
    const cursor = last?.[EXPORTS[this.kind].cursor];
    if (typeof cursor !== 'string') throw new Error(`A ${this.kind} page said has_more without an item to continue after.`);
    return this.fetchPage({ query: { ...this.filters, starting_after: cursor }, page_size: this.pageSize });
  }
}

/** What a door tells sendCsv about the export it answers. */
export interface SendCsvOptions {
  livemode: boolean;
  requestId: string;
  log: Logger;
  /** An answer whose client takes no byte for this long is cut off, freeing its pages and its socket. */
  idleTimeoutMs: number;
  /** An answer still being written after this many seconds is cut off (D29: EXPORT_MAX_SECONDS, @gateway/config's exportSettings). */
  maxSeconds: number;
  /** HEAD: the headers a GET would have, without reading every page for a body nobody receives. */
  headOnly?: boolean;
}

/** Errors of an answer whose client went away before its end. */
const CLIENT_GONE: ReadonlySet<unknown> = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE']);

/**
 * Answers `csv` on an HTTP response whose headers are not sent: 200 with
 * exportHeaders, then every row (writeTo), logged with how many rows and how
 * long. An answer that runs past `maxSeconds`, or whose client takes nothing
 * for `idleTimeoutMs`, is cut off: no page more is read, and the client sees
 * an incomplete transfer, never a shorter file that looks whole. Every end
 * but success is logged with why and how far it got, never with a row or the
 * query. Every door that serves an export ends here.
 */
export async function sendCsv(csv: CsvExport, res: ServerResponse, options: SendCsvOptions): Promise<void> {
  res.writeHead(200, exportHeaders(csv.kind, options.livemode));
  if (options.headOnly) {
    res.end();
    return;
  }
  const { maxSeconds } = options;
  let stopped: 'idle' | 'time' | undefined;
  const stop = (why: 'idle' | 'time') => {
    stopped ??= why;
    res.destroy(new Error(why === 'idle' ? `export idle for ${options.idleTimeoutMs} ms` : `export ran for ${maxSeconds} s`));
  };
  res.setTimeout(options.idleTimeoutMs, () => stop('idle'));
  const deadline = setTimeout(() => stop('time'), maxSeconds * 1000);
  const started = Date.now();
  const fields = () => ({ requestId: options.requestId, export: csv.kind, livemode: options.livemode, rows: csv.rows, ms: Date.now() - started });
  try {
    await csv.writeTo(res);
    options.log.info(fields(), 'export written');
  } catch (err) {
    const error = describeError(err);
    if (stopped === 'time') options.log.warn({ ...fields(), maxSeconds }, 'export stopped: it ran longer than EXPORT_MAX_SECONDS');
    else if (stopped === 'idle') options.log.info({ ...fields(), idleTimeoutMs: options.idleTimeoutMs }, 'export stopped: its client took no byte for the idle timeout');
    else if (CLIENT_GONE.has(error.code)) options.log.info({ err: error, ...fields() }, 'export abandoned by the client');
    else options.log.error({ err: error, ...fields() }, 'export cut off after its first bytes');
  } finally {
    clearTimeout(deadline);
  }
}
