/**
 * GET /gateway/exports/{sessions,refunds,balance_transactions}.csv (D21):
 * every row of the caller's account and mode that the list's filters match,
 * as CSV, streamed by @gateway/exports page after page from the owning
 * service. The query is the list's query, so the list checks it: the first
 * page is read before anything is sent, and a refused filter answers the
 * list's problem document like any call. Past the first byte a failure can
 * only cut the answer off, which the client sees as an incomplete transfer.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiContext } from '@gateway/contracts';
import { exportHeaders, EXPORTS, openExport, type ExportKind } from '@gateway/exports';
import type { RpcClient } from '@gateway/messaging';
import { describeError, type Logger } from '@gateway/observability';
import { nulProblem } from './json-body.js';

export interface ExportDeps {
  rpc: RpcClient;
  log: Logger;
  /** Rows read per page (EXPORT_PAGE_SIZE). */
  pageSize: number;
}

/** Answers an export for `context`'s account and mode: a problem document until the first page is read, then the CSV. */
export async function sendExport(deps: ExportDeps, kind: ExportKind, context: ApiContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const query = request.query as Record<string, unknown>;
  const refused = nulProblem(query);
  if (refused) throw refused;
  const correlationId = context.request_id;
  const csv = await openExport(kind, query, async (page) => (await deps.rpc.call(EXPORTS[kind].command, { context, ...page }, { correlationId })).body, {
    pageSize: deps.pageSize,
  });

  // The CSV is written on the raw answer from here on: fastify sends nothing more.
  reply.hijack();
  const res = reply.raw;
  if (res.destroyed) return;
  res.writeHead(200, exportHeaders(kind, context.livemode));
  const started = Date.now();
  try {
    const { rows } = await csv.writeTo(res);
    deps.log.info({ requestId: correlationId, export: kind, livemode: context.livemode, rows, ms: Date.now() - started }, 'export written');
  } catch (err) {
    // Neither the rows nor the query are logged: how far it got, and why it stopped.
    const error = describeError(err);
    const fields = { err: error, requestId: correlationId, export: kind, livemode: context.livemode, rows: csv.rows, ms: Date.now() - started };
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') deps.log.info(fields, 'export abandoned by the client');
    else deps.log.error(fields, 'export cut off after its first bytes');
  }
}
