/**
 * The local run's settings file (.local/gateway-admin.json, D29): gateway-admin
 * takes its broker URL and operator key file from it only when the user running
 * it owns it and nobody else may write it; otherwise it says why and exits 2,
 * sending nothing.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from '@gateway/testkit';

const BIN = path.join(repoRoot, 'packages', 'gateway-admin', 'bin', 'gateway-admin.js');

describe('gateway-admin and the local run\'s settings file', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gateway-admin-config-'));
    file = path.join(dir, 'gateway-admin.json');
    writeFileSync(file, JSON.stringify({ AMQP_URL: 'amqp://gw.gateway-admin:pw@127.0.0.1:5672', BROKER_PREFIX: 'gw', OPERATOR_KEY_FILE: path.join(dir, 'operator-key.jwk') }), { mode: 0o600 });
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** gateway-admin `args` run with `dir` as the local run's folder and nothing of its settings in the environment. */
  function run(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
    const env: NodeJS.ProcessEnv = { ...process.env, GATEWAY_LOCAL_DIR: dir };
    for (const name of ['AMQP_URL', 'BROKER_PREFIX', 'OPERATOR_KEY', 'OPERATOR_KEY_FILE']) delete env[name];
    const result = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', timeout: 30_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  it('when others may write the file, then it is refused with what to do (exit 2), and nothing is run', () => {
    for (const mode of [0o666, 0o620, 0o602]) {
      chmodSync(file, mode);
      const { status, stdout, stderr } = run(['operator', 'keygen']);
      assert.equal(status, 2, `mode ${mode.toString(8)}: ${stderr}`);
      assert.equal(stdout, '');
      const error = JSON.parse(stderr.split('\n')[0] ?? '{}') as { error: string; detail: string };
      assert.equal(error.error, 'config-file');
      assert.ok(error.detail.includes(file), error.detail);
      assert.match(error.detail, /others can write it/);
      assert.match(error.detail, /chmod 600/);
    }
  });

  it('when the file is not the user\'s, then it is refused with whose it is (exit 2)', function () {
    if (process.getuid?.() !== 0) this.skip();
    chownSync(file, 1000, 1000);
    const { status, stderr } = run(['operator', 'keygen']);
    assert.equal(status, 2, stderr);
    const error = JSON.parse(stderr.split('\n')[0] ?? '{}') as { error: string; detail: string };
    assert.equal(error.error, 'config-file');
    assert.match(error.detail, /not yours \(its owner is uid 1000\)/);
  });

  it('when the file is the user\'s and others cannot write it, then it is taken, as when there is none', () => {
    chmodSync(file, 0o644);
    assert.equal(run(['operator', 'keygen']).status, 0, 'others may read it: make up writes it 0600, but reading gives nothing to change');
    chmodSync(file, 0o600);
    const { status, stdout } = run(['operator', 'keygen']);
    assert.equal(status, 0);
    assert.ok((JSON.parse(stdout) as { kid?: string }).kid);
    rmSync(file);
    assert.equal(run(['operator', 'keygen']).status, 0);
  });
});
