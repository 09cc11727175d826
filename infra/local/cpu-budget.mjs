// A whole payment's CPU by service against its budget (bench/payment-cpu-budget.json),
// printed after each payment run: each service's milliseconds, its share of the
// system's (the sandbox and the load generator are not the system), and which
// services are over their budget, so a change that adds a hop shows where at once.
import { readFileSync } from 'node:fs';

/** Not the system's: the acquirer's imitation and the benchmark itself. */
const OUTSIDE = new Set(['epg-sandbox', 'load generator', 'total']);

/** The budget file: milliseconds of CPU per payment by service, at the rate it names. */
export function readBudget(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Lines of the report for `cpuMsPerPayment` (a payment run's figures) measured at `rate`. */
export function budgetReport(cpuMsPerPayment, budget, rate) {
  const services = Object.entries(cpuMsPerPayment).filter(([name]) => !OUTSIDE.has(name));
  const system = services.reduce((sum, [, ms]) => sum + ms, 0);
  const comparable = rate === budget.rate;
  const lines = [`CPU per payment by service (ms, share of the system's ${system.toFixed(2)} ms; budget at ${budget.rate}/s${comparable ? '' : `, this run at ${rate}/s: shares only`})`];
  for (const [name, ms] of services.sort((a, b) => b[1] - a[1])) {
    const allowed = budget.msPerPayment[name];
    const over = comparable && allowed !== undefined && ms > allowed ? '  OVER BUDGET' : '';
    lines.push(`  ${name.padEnd(20)} ${ms.toFixed(2).padStart(6)}  ${((100 * ms) / system).toFixed(1).padStart(5)}%  budget ${allowed === undefined ? '-' : allowed.toFixed(2)}${over}`);
  }
  const total = budget.msPerPayment.system;
  if (comparable && total !== undefined) lines.push(`  ${'system'.padEnd(20)} ${system.toFixed(2).padStart(6)}          budget ${total.toFixed(2)}${system > total ? '  OVER BUDGET' : ''}`);
  return lines;
}
