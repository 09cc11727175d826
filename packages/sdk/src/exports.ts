/**
 * The CSV exports (D21: GET /gateway/exports/sessions.csv, refunds.csv,
 * balance_transactions.csv), downloaded to a file as they arrive: the body is
 * written chunk by chunk, never held whole, into a temporary file beside the
 * target that takes the target's name only once the transfer has ended. A
 * refusal (a 422 for a bad filter) is the typed error with its problem, and a
 * transfer cut off or failed leaves no file behind (nor touches one already
 * at the path).
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { ConnectionError, GatewayError } from './errors.js';
import { operations, type Operations } from './generated/openapi.js';
import type { Transport } from './transport.js';

/** The operation behind each export, by the name of its file. */
const EXPORT_OPERATIONS = {
  sessions: 'exportSessions',
  refunds: 'exportRefunds',
  balance_transactions: 'exportBalanceTransactions',
} as const;

/** What can be exported: `sessions.csv`, `refunds.csv`, `balance_transactions.csv`. */
export type ExportKind = keyof typeof EXPORT_OPERATIONS;

/** An export's filters: its list's, without the paging parameters (an export has every matching row). */
export type ExportQuery<K extends ExportKind> = Operations[(typeof EXPORT_OPERATIONS)[K]]['query'];

export interface DownloadOptions {
  /** Stops the download; the partial file is removed and the abort's reason thrown. */
  signal?: AbortSignal;
}

/** A finished download. */
export interface Download {
  /** Where the CSV is: the filePath given. */
  path: string;
  /** Bytes written. */
  bytes: number;
  /** The file name the gateway suggested (Content-Disposition), such as `sessions-test-2026-11-30.csv`. */
  fileName: string | undefined;
  requestId: string | undefined;
}

export class Exports {
  constructor(private readonly gateway: { readonly transport: Transport }) {}

  /**
   * Downloads the `kind` export narrowed by `query` to `filePath`, streaming
   * it to disk. Waiting for the answer is retried as any GET is (network
   * errors, 429, 500, 502); once the body flows, more than the client's
   * `timeoutMs` without data, or a transfer cut off, is a ConnectionError and
   * the partial file is removed. A refused query is a ValidationError with
   * every field at fault; no file is created then.
   */
  async download<K extends ExportKind>(kind: K, query: ExportQuery<K>, filePath: string, options: DownloadOptions = {}): Promise<Download> {
    if (!Object.hasOwn(EXPORT_OPERATIONS, kind)) throw new TypeError(`kind must be one of ${Object.keys(EXPORT_OPERATIONS).join(', ')}`);
    if (typeof filePath !== 'string' || filePath.length === 0) throw new TypeError('filePath must be the path of the file to write');
    const transport = this.gateway.transport;
    const stalled = new AbortController();
    const signal = options.signal ? AbortSignal.any([stalled.signal, options.signal]) : stalled.signal;
    const response = await transport.open({
      method: 'GET',
      path: operations[EXPORT_OPERATIONS[kind]].path,
      query: query as Record<string, string | undefined>,
      accept: 'text/csv, application/problem+json',
      signal,
    });
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const contentType = response.headers.get('content-type') ?? '';
    if (!/^text\/csv\b/i.test(contentType) || response.body === null) {
      await response.body?.cancel();
      throw new GatewayError(`The gateway answered ${response.status} with ${contentType || 'no content type'}, not CSV.`, { status: response.status, ...(requestId !== undefined && { requestId }) });
    }

    const part = join(dirname(filePath), `.${basename(filePath)}.${randomUUID()}.part`);
    let bytes = 0;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => stalled.abort(new DOMException(`No data for ${transport.options.timeoutMs} ms.`, 'TimeoutError')), transport.options.timeoutMs);
    };
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        arm();
        done(null, chunk);
      },
    });
    const body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
    const file = createWriteStream(part, { flags: 'wx' });
    // Which end failed first: the pipeline then fails the other with the same error.
    let failed: 'body' | 'file' | undefined;
    body.once('error', () => (failed ??= 'body'));
    file.once('error', () => (failed ??= 'file'));
    arm();
    try {
      await pipeline(body, counted, file);
      await rename(part, filePath);
    } catch (err) {
      // A body that failed before the file was open leaves the file to open (and appear) after: it is removed once closed.
      if (!file.closed) await once(file, 'close').catch(() => undefined);
      await rm(part, { force: true });
      // The disk's failure, or the caller's abort, is thrown as it is; anything else lost the transfer.
      if (failed === 'file') throw err;
      if (options.signal?.aborted) throw options.signal.reason ?? err;
      throw new ConnectionError(`The ${kind} export was cut off after ${bytes} bytes; no file was written at ${filePath}.`, { cause: err, ...(requestId !== undefined && { requestId }) });
    } finally {
      clearTimeout(timer);
    }
    return { path: filePath, bytes, fileName: fileNameOf(response.headers.get('content-disposition')), requestId };
  }
}

/** The filename of `attachment; filename="…"`. */
function fileNameOf(disposition: string | null): string | undefined {
  return disposition?.match(/filename="([^"]*)"/)?.[1] ?? disposition?.match(/filename=([^;\s]+)/)?.[1];
}
