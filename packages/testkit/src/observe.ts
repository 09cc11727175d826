/**
 * Watching a running system from outside: waiting until something holds, and
 * counting what a process's /metrics say it did.
 */

/** Resolves once `test` holds, polling every `everyMs`; rejects with `what` after `timeoutMs`. */
export async function pollUntil(test: () => Promise<boolean> | boolean, timeoutMs: number, what: string, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** The sum of the samples of `family` in the /metrics of the process on `port` whose labels include every one of `labels`. */
async function metricSum(port: number, family: string, labels: Readonly<Record<string, string>>): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const wanted = Object.entries(labels).map(([name, value]) => `${name}="${value}"`);
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${family}{`) && wanted.every((label) => line.includes(label)))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

/** How many `command` commands the process listening on `port` has handled (gateway_rpc_server_duration_seconds_count in its /metrics). */
export async function commandsHandled(port: number, command: string): Promise<number> {
  return metricSum(port, 'gateway_rpc_server_duration_seconds_count', { command });
}

/** How many `type` events the durable consumer of the process on `port` took with `outcome` (handled, skipped, duplicate, ...). */
export async function eventsTaken(port: number, type: string, outcome: string): Promise<number> {
  return metricSum(port, 'gateway_consumer_events_handled_total', { type, outcome });
}

/** How many times the process on `port` applied `change` (apply-once) that arrived by `path` with `outcome` (applied, unchanged): gateway_changes_total. */
export async function changesCounted(port: number, change: string, path: string, outcome: string): Promise<number> {
  return metricSum(port, 'gateway_changes_total', { change, path, outcome });
}
