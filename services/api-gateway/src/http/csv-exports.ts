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
import { EXPORTS, openExport, sendCsv, type ExportKind } from '@gateway/exports';
import type { RpcClient } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import { nulProblem } from './json-body.js';

export interface ExportDeps {
  rpc: RpcClient;
  log: Logger;
  /** Rows read per page (EXPORT_PAGE_SIZE). */
  pageSize: number;
  /** How long an export may stand without a byte moving (EXPORT_IDLE_TIMEOUT_MS). */
  idleTimeoutMs: number;
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
  if (reply.raw.destroyed) return;
  await sendCsv(csv, reply.raw, { livemode: context.livemode, requestId: correlationId, log: deps.log, idleTimeoutMs: deps.idleTimeoutMs, headOnly: request.method === 'HEAD' });
}
