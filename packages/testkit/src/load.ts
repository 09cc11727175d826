/**
 * Load against a process being stopped or restarted: requests sent one after
 * another by a few loops, and what they came to (answered, refused, dropped).
 */

/** What a stream of requests against a process being stopped came to. */
interface LoadTally {
  /** The status of every request that got an answer, in the order answered. */
  readonly statuses: number[];
  /** Requests refused at connect (ECONNREFUSED): nothing was listening any more. */
  refused: number;
  /** Any other failure to get an answer (a reset or closed socket, a timeout), with its code and message. */
  readonly dropped: string[];
  /** Resets sent again once (only with `retryResetOnce`), with their code: what a browser does for a GET. */
  readonly retried: string[];
}

/** A connection closed or reset before any answer: the request may never have been read. */
const RESET_CODES = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);

/** The code of a failed fetch (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET...), from its cause chain. */
function fetchErrorCode(err: unknown): string {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return 'UNKNOWN';
}

/**
 * Keeps `concurrency` loops each sending one request after another (`send`
 * returns the answer's status) until `stop` is called; `stop` resolves with
 * the tally once the requests under way have ended. A refused connection is
 * retried after a short pause, so a stopped target is not hammered.
 *
 * With `retryResetOnce` (idempotent requests only), a request whose
 * connection was reset or closed before any answer is sent once more, as a
 * browser does (RFC 9112 section 9.3.1): a server that closes an idle
 * keep-alive connection cannot stop a request already crossing it on the
 * wire, nor one queued at a listener that closes.
 */
export function keepSending(
  send: () => Promise<number>,
  concurrency: number,
  options: { retryResetOnce?: boolean } = {},
): { readonly tally: LoadTally; stop(): Promise<LoadTally> } {
  const tally: LoadTally = { statuses: [], refused: 0, dropped: [], retried: [] };
  let stopped = false;
  const sendOnce = async () => {
    try {
      return await send();
    } catch (err) {
      const code = fetchErrorCode(err);
      if (!options.retryResetOnce || !RESET_CODES.has(code)) throw err;
      tally.retried.push(code);
      return send();
    }
  };
  const loop = async () => {
    while (!stopped) {
      try {
        tally.statuses.push(await sendOnce());
      } catch (err) {
        const code = fetchErrorCode(err);
        if (code === 'ECONNREFUSED') tally.refused += 1;
        else tally.dropped.push(`${code}: ${(err as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  const loops = Array.from({ length: concurrency }, () => loop());
  return {
    tally,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return tally;
    },
  };
}
