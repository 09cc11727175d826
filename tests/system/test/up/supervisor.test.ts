/**
 * The supervisor `make up` keeps its services up with (packages/system), on
 * real services, child processes of the build: the sandbox acquirer, which
 * needs no server, and the refund service started without the operators' keys,
 * which it refuses to start without. The waits are shortened through its
 * policy; the rest is make up's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeEvent, freePort as reservePort, releasePorts, RESTART_POLICY, Supervisor, type SupervisorEvent } from '@gateway/system';
import { pollUntil } from '@gateway/testkit';
import { alive } from './processes.js';

describe('the supervisor of make up', function () {
  this.timeout(60_000);
  let logDir: string;
  let supervisor: Supervisor | undefined;
  const events: SupervisorEvent[] = [];
  const ports: number[] = [];
  /** A port of the launcher's reservations, given back after the test. */
  const freePort = async () => {
    const port = await reservePort();
    ports.push(port);
    return port;
  };

  beforeEach(() => {
    logDir = mkdtempSync(path.join(tmpdir(), 'supervisor-'));
    events.length = 0;
  });
  afterEach(async () => {
    await supervisor?.stopAll();
    rmSync(logDir, { recursive: true, force: true });
    releasePorts(ports.splice(0));
  });

  const exitsOf = (name: string) => events.filter((event): event is Extract<SupervisorEvent, { type: 'exited' }> => event.type === 'exited' && event.name === name);
  const startsOf = (name: string) => events.filter((event) => event.type === 'started' && event.name === name);

  it('when a service fails at every start, then it is tried 5 times with growing waits, each failure told with its reason, and given up on while its neighbour keeps running', async () => {
    supervisor = new Supervisor({ logDir, policy: { ...RESTART_POLICY, backoff: { first: 100, max: 400, jitter: 0.2 } }, onEvent: (event) => events.push(event) });
    const sandboxPort = await freePort();
    assert.equal(await supervisor.start({ name: 'epg-sandbox', service: 'epg-sandbox', port: sandboxPort, env: {} }), true);
    const sandboxPid = supervisor.running.get('epg-sandbox')?.pid as number;
    // The refund service refuses to start without the operators' keys.
    assert.equal(await supervisor.start({ name: 'refund', service: 'refund', port: await freePort(), env: { OPERATOR_PUBLIC_KEYS: '' } }), false);

    const exits = exitsOf('refund');
    assert.equal(exits.length, 5);
    assert.deepEqual(
      exits.map((exit) => [exit.exit.code, exit.next.restart, exit.next.failuresAtStart]),
      [1, 2, 3, 4, 5].map((n) => [1, n < 5, n]),
    );
    const waits = exits.flatMap((exit) => (exit.next.restart ? [exit.next.afterMs] : []));
    [100, 200, 400, 400].forEach((wait, i) => assert.ok(Math.abs((waits[i] as number) - wait) <= wait * 0.2 + 1e-9, `wait ${i + 1}: ${waits[i]} ms`));
    for (const exit of exits) {
      assert.match(exit.startFailure ?? '', /refund exited during start/);
      assert.ok(exit.lastLines.some((line) => line.includes('OPERATOR_PUBLIC_KEYS is required')), exit.lastLines.join('\n'));
      assert.ok(!exit.lastLines.some((line) => /^\s+at /.test(line)), 'no stack frame told');
    }
    const told = describeEvent(exits[4] as SupervisorEvent).join('\n');
    assert.match(told, /refund \(pid \d+\) exited, exit code 1, during its start \(refund exited during start\); it failed at its start 5 times in a row: not starting it again; the other services keep running\./);
    assert.match(told, /OPERATOR_PUBLIC_KEYS is required/);

    assert.equal(supervisor.running.has('refund'), false);
    assert.equal(startsOf('refund').length, 0);
    assert.deepEqual([startsOf('epg-sandbox').length, exitsOf('epg-sandbox').length], [1, 0]);
    assert.ok(alive(sandboxPid));
    assert.equal((await fetch(`http://127.0.0.1:${sandboxPort}/readyz`)).status, 200);
  });

  it('when a service is killed, then it is started again with a new pid; when everything stops during the wait before that, then it is not started again and all is stopped at once', async () => {
    supervisor = new Supervisor({ logDir, policy: { ...RESTART_POLICY, backoff: { first: 1_000, max: 10_000, jitter: 0 } }, onEvent: (event) => events.push(event) });
    const port = await freePort();
    await supervisor.start({ name: 'epg-sandbox', service: 'epg-sandbox', port, env: {} });
    const first = supervisor.running.get('epg-sandbox')?.pid as number;
    process.kill(first, 'SIGKILL');
    await pollUntil(() => startsOf('epg-sandbox').length === 2, 20_000, 'the sandbox started again');
    const second = supervisor.running.get('epg-sandbox')?.pid as number;
    assert.notEqual(second, first);
    assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);
    assert.deepEqual(
      exitsOf('epg-sandbox').map((exit) => [exit.exit.signal, exit.next.restart]),
      [['SIGKILL', true]],
    );

    // Killed again at once: a row of exits, so its restart waits 2 s; everything stops during that wait.
    process.kill(second, 'SIGKILL');
    await pollUntil(() => exitsOf('epg-sandbox').length === 2, 10_000, 'the second kill told');
    const stopping = Date.now();
    await supervisor.stopAll();
    assert.ok(Date.now() - stopping < 1_000, `stopped in ${Date.now() - stopping} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(startsOf('epg-sandbox').length, 2);
    assert.equal(supervisor.running.size, 0);
  });
});
