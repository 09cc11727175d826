/**
 * GET /gateway/exports/{sessions,refunds,balance_transactions}.csv (D21):
 * every row of the caller's account and mode that the list's filters match,
 * as CSV, streamed by @gateway/exports page after page from the owning
 * service. The query is the list's query, so the list checks it: the first
 * page is read before anything is sent, and a refused filter answers the
 * list's problem document like any call. Past the first byte a failure can
 * only cut the answer off, which the client sees as an incomplete transfer.
 *
 * An export holds one of its account's slots from before its first page
 * until its answer ends, however it ends (D29, withExportSlot, the slots the
 * dashboard's downloads count in too): past EXPORTS_PER_MERCHANT running at
 * once, 429; past EXPORT_MAX_SECONDS, cut off.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiContext } from '@gateway/contracts';
import { EXPORTS, openExport, sendCsv, withExportSlot, type ExportKind, type ExportSlots } from '@gateway/exports';
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
  /** How long an export may run (EXPORT_MAX_SECONDS). */
  maxSeconds: number;
  /** The slots of running exports, shared by the replicas (EXPORTS_PER_MERCHANT). */
  slots: Pick<ExportSlots, 'take'>;
}

/** Answers an export for `context`'s account and mode: a problem document until the first page is read, then the CSV. */
export async function sendExport(deps: ExportDeps, kind: ExportKind, context: ApiContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const query = request.query as Record<string, unknown>;
  const refused = nulProblem(query);
  if (refused) throw refused;
  await withExportSlot(deps.slots, { merchantId: context.merchant_id, livemode: context.livemode }, async () => {
    const correlationId = context.request_id;
    const csv = await openExport(kind, query, async (page) => (await deps.rpc.call(EXPORTS[kind].command, { context, ...page }, { correlationId })).body, {
      pageSize: deps.pageSize,
    });

    // The CSV is written on the raw answer from here on: fastify sends nothing more.
    reply.hijack();
    if (reply.raw.destroyed) return;
    await sendCsv(csv, reply.raw, {
      livemode: context.livemode,
      requestId: correlationId,
      log: deps.log,
      idleTimeoutMs: deps.idleTimeoutMs,
      maxSeconds: deps.maxSeconds,
      headOnly: request.method === 'HEAD',
    });
  });
}
