/**
 * The payment benchmark's CPU report (infra/local/cpu-budget.mjs): each
 * service's share of the system's CPU per payment, and which services are
 * over bench/payment-cpu-budget.json, checked without a benchmark.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../src/index.js';

interface Budget {
  rate: number;
  msPerPayment: Record<string, number>;
}

type Report = (cpuMsPerPayment: Record<string, number>, budget: Budget, rate: number) => string[];

describe('infra/local/cpu-budget.mjs, the payment benchmark\'s CPU report', () => {
  let budgetReport: Report;
  let readBudget: (file: string) => Budget;

  before(async () => {
    ({ budgetReport, readBudget } = (await import(pathToFileURL(path.join(repoRoot, 'infra', 'local', 'cpu-budget.mjs')).href)) as { budgetReport: Report; readBudget: (file: string) => Budget });
  });

  it('when a run is within budget but one service, then only that one is marked, shares leave out the sandbox and the generator, and the system total is checked', () => {
    const budget = { rate: 60, msPerPayment: { session: 1.5, checkout: 1.5, system: 4 } };
    const lines = budgetReport({ session: 1.0, checkout: 2.0, 'epg-sandbox': 9, 'load generator': 9, total: 21 }, budget, 60);
    assert.match(lines[0] ?? '', /system's 3\.00 ms/);
    assert.match(lines.find((l) => l.includes('checkout')) ?? '', /66\.7%.*OVER BUDGET$/);
    assert.doesNotMatch(lines.find((l) => l.includes('session')) ?? '', /OVER/);
    assert.ok(!lines.some((l) => l.includes('epg-sandbox') || l.includes('load generator')));
    assert.doesNotMatch(lines.at(-1) ?? '', /OVER/);
  });

  it('when a run is at another rate than the budget, then it shows shares only: no service is judged', () => {
    const lines = budgetReport({ session: 9 }, { rate: 60, msPerPayment: { session: 1, system: 1 } }, 150);
    assert.match(lines[0] ?? '', /this run at 150\/s: shares only/);
    assert.ok(!lines.some((l) => l.includes('OVER')));
  });

  it('when the budget file is read, then it names a budget for every service and the system, at a rate', () => {
    const budget = readBudget(path.join(repoRoot, 'bench', 'payment-cpu-budget.json'));
    assert.equal(budget.rate, 60);
    for (const name of ['postgres', 'rabbitmq', 'checkout', 'session', 'acquirer-adapter', 'api-gateway', 'system']) assert.ok(budget.msPerPayment[name] !== undefined, name);
  });
});
