import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeEvent, RESTART_POLICY, RestartRule, tailOf, telling, type RestartDecision, type Run } from '../../src/index.js';

/** A run that never became ready, and runs that were ready for `ms`. */
const neverReady: Run = { ready: false, readyMs: 0 };
const readyFor = (ms: number): Run => ({ ready: true, readyMs: ms });

/** The waits, in ms, a rule without jitter (random 0.5: the middle of the spread) answers to `runs`; 'give up' where it gives up. */
function waits(runs: readonly Run[]): (number | 'give up')[] {
  const rule = new RestartRule(RESTART_POLICY, () => 0.5);
  return runs.map((run) => {
    const next: RestartDecision = rule.next(run);
    return next.restart ? next.afterMs : 'give up';
  });
}

describe('restart policy (make up)', () => {
  it('when a process keeps exiting, then each restart waits longer, from 0.5 s up to 10 s', () => {
    const rule = new RestartRule({ ...RESTART_POLICY, giveUpAfter: 100 }, () => 0.5);
    const afterMs = Array.from({ length: 8 }, () => rule.next(readyFor(10_000))).map((next) => (next.restart ? next.afterMs : -1));
    assert.deepEqual(afterMs, [500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
  });

  it('when the waits are drawn, then they spread 20 % either side of the wait', () => {
    assert.deepEqual(new RestartRule(RESTART_POLICY, () => 0).next(readyFor(60_000)), { restart: true, afterMs: 400, failuresAtStart: 0 });
    const high = new RestartRule(RESTART_POLICY, () => 0.999_999).next(readyFor(60_000));
    assert.ok(high.restart && Math.abs(high.afterMs - 600) < 0.01, JSON.stringify(high));
  });

  it('when a process ran ready for a while before exiting, then the next restart waits the first wait again, and it is never given up on', () => {
    const stable = readyFor(RESTART_POLICY.stableAfterMs);
    assert.deepEqual(waits([readyFor(10_000), readyFor(10_000), readyFor(10_000), stable, readyFor(10_000)]), [500, 1_000, 2_000, 500, 1_000]);
    assert.ok(waits(Array.from({ length: 20 }, () => readyFor(RESTART_POLICY.failedAtStartWithinMs))).every((wait) => wait !== 'give up'));
  });

  it('when a process fails at its start 5 times in a row (never ready, or exits within 5 s of it), then it is given up on at the fifth', () => {
    assert.deepEqual(waits([neverReady, readyFor(1_000), neverReady, readyFor(4_999), neverReady]), [500, 1_000, 2_000, 4_000, 'give up']);
    const rule = new RestartRule(RESTART_POLICY, () => 0.5);
    for (let i = 0; i < 4; i += 1) rule.next(neverReady);
    assert.deepEqual(rule.next(neverReady), { restart: false, failuresAtStart: 5 });
  });

  it('when a run that got past its start comes between failures at start, then the count starts again', () => {
    const decisions = waits([neverReady, neverReady, neverReady, neverReady, readyFor(6_000), neverReady, neverReady, neverReady, neverReady, neverReady]);
    assert.deepEqual(decisions.slice(0, 9).includes('give up'), false);
    assert.equal(decisions[9], 'give up');
  });
});

describe("what make up prints of a process's exit", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'supervisor-test-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("when a process exits after writing warnings and errors, then its last ones are told, as level, message and error, and only this run's", () => {
    const file = path.join(dir, 'refund.log');
    const earlier = `${JSON.stringify({ level: 'fatal', msg: 'an earlier run' })}\n`;
    writeFileSync(file, earlier);
    const lines = [
      { level: 'info', msg: 'listening', port: 8084 },
      { level: 'warn', msg: 'broker connect failed', err: 'ECONNREFUSED' },
      { level: 'fatal', msg: 'failed to start', err: { name: 'SecretsError', message: 'data key dk_1 does not unwrap' } },
    ];
    writeFileSync(file, `${earlier}${lines.map((line) => JSON.stringify(line)).join('\n')}\nnode:internal/process: an uncaught error\n`);
    assert.deepEqual(telling(tailOf(file, Buffer.byteLength(earlier))), ['warn broker connect failed', 'fatal failed to start: SecretsError: data key dk_1 does not unwrap', 'node:internal/process: an uncaught error']);
  });

  it("when a process died of an uncaught error, then what Node printed of it is told without the source excerpt and the stack", () => {
    const printed = [
      'file:///work/packages/config/dist/src/index.js:36',
      '        throw new ConfigError(problems);',
      '              ^',
      '',
      'ConfigError: invalid configuration:',
      '  OPERATOR_PUBLIC_KEYS is required',
      '    at loadConfig (file:///work/packages/config/dist/src/index.js:36:15)',
      '    at async asyncRunEntryPointWithESMLoader (node:internal/modules/run_main:117:5) {',
      "  problems: [ 'OPERATOR_PUBLIC_KEYS is required' ]",
      '}',
      '',
      'Node.js v20.20.2',
    ];
    assert.deepEqual(telling(printed), ['ConfigError: invalid configuration:', '  OPERATOR_PUBLIC_KEYS is required', "  problems: [ 'OPERATOR_PUBLIC_KEYS is required' ]"]);
  });

  it('when a killed process logged nothing but information, then its last lines are told', () => {
    const file = path.join(dir, 'session.log');
    writeFileSync(file, Array.from({ length: 8 }, (_, i) => JSON.stringify({ level: 'info', msg: `line ${i}` })).join('\n'));
    assert.deepEqual(telling(tailOf(file, 0)), ['info line 3', 'info line 4', 'info line 5', 'info line 6', 'info line 7']);
    assert.deepEqual(tailOf(path.join(dir, 'missing.log'), 0), []);
  });

  it('when a process exits, then the console says how, when, what comes next and why; when it is given up on, it says so', () => {
    const exited = { type: 'exited', name: 'refund', pid: 42, readyMs: 61_000, logFile: '/x/.local/logs/refund.log', lastLines: ['info listening'] } as const;
    assert.deepEqual(describeEvent({ ...exited, exit: { code: null, signal: 'SIGKILL' }, next: { restart: true, afterMs: 500, failuresAtStart: 0 } }, (file) => path.relative('/x', file)), [
      '  ✗ refund (pid 42) exited, killed by SIGKILL, after 61 s ready; starting it again in 0.5 s.',
      '    last lines of .local/logs/refund.log:',
      '      info listening',
    ]);
    const gaveUp = describeEvent({
      ...exited,
      readyMs: 0,
      exit: { code: 1, signal: null },
      startFailure: 'refund exited during start; see its log /x/.local/logs/refund.log',
      next: { restart: false, failuresAtStart: 5 },
    });
    assert.equal(gaveUp[0], '  ✗ refund (pid 42) exited, exit code 1, during its start (refund exited during start); it failed at its start 5 times in a row: not starting it again; the other services keep running.');
    assert.deepEqual(describeEvent({ type: 'started', name: 'refund', pid: 43, restarts: 1 }), ['  refund started again, ready (pid 43)']);
  });
});
