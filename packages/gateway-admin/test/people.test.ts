/**
 * gateway-admin's commands for the people who sign in (D14, D15): what each
 * sends to the dashboard service, what it prints, and the usage errors that
 * stop it before anything is sent.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { checkCommandRequest, type CommandType } from '@gateway/contracts';
import { repoRoot } from '@gateway/testkit';
import { runAdmin, USAGE, UsageError, type Send } from '../src/admin.js';

/** A Send that records every command and answers with `reply`. */
function recorder(reply: Record<string, unknown>): { sent: { type: CommandType; data: unknown }[]; send: Send } {
  const sent: { type: CommandType; data: unknown }[] = [];
  const send = (async (type: CommandType, data: unknown) => {
    sent.push({ type, data });
    return reply;
  }) as Send;
  return { sent, send };
}

const MERCHANT = `mer_${'a'.repeat(24)}`;
const SETUP_URL = 'http://localhost:8080/dashboard/setup#token';

describe('gateway-admin user create and operator create', () => {
  it('When a user is created with a role and a password, then user.create is sent with them, valid by its contract, and it prints user_id only: no setup link for a person with a password (D29)', async () => {
    const { sent, send } = recorder({ user_id: 'usr_1', extra: 'not printed' });
    const out = await runAdmin(['user', 'create', MERCHANT, '--email', 'owner@shop.example', '--role', 'owner', '--password', 'correct horse battery'], send);
    assert.deepEqual(sent, [{ type: 'user.create', data: { merchant_id: MERCHANT, email: 'owner@shop.example', role: 'owner', password: 'correct horse battery' } }]);
    assert.doesNotThrow(() => checkCommandRequest('user.create', sent[0]?.data));
    assert.deepEqual(out, { user_id: 'usr_1' });
  });

  it('When a user is created without a password, then none is sent (the person sets it through the setup link), and it prints user_id and setup_url only', async () => {
    const { sent, send } = recorder({ user_id: 'usr_2', setup_url: SETUP_URL, extra: 'not printed' });
    const outs: unknown[] = [];
    for (const role of ['developer', 'viewer']) outs.push(await runAdmin(['user', 'create', MERCHANT, '--email', `${role}@shop.example`, '--role', role], send));
    assert.deepEqual(outs, [{ user_id: 'usr_2', setup_url: SETUP_URL }, { user_id: 'usr_2', setup_url: SETUP_URL }]);
    assert.deepEqual(
      sent.map((s) => s.data),
      [
        { merchant_id: MERCHANT, email: 'developer@shop.example', role: 'developer' },
        { merchant_id: MERCHANT, email: 'viewer@shop.example', role: 'viewer' },
      ],
    );
  });

  it('When an operator is created, then operator.create is sent, valid by its contract, and it prints operator_id, and setup_url only without a password', async () => {
    const withPassword = recorder({ operator_id: 'opr_1' });
    const out = await runAdmin(['operator', 'create', '--email', 'ops@example.com', '--password', 'a long ops password'], withPassword.send);
    assert.deepEqual(withPassword.sent, [{ type: 'operator.create', data: { email: 'ops@example.com', password: 'a long ops password' } }]);
    assert.doesNotThrow(() => checkCommandRequest('operator.create', withPassword.sent[0]?.data));
    assert.deepEqual(out, { operator_id: 'opr_1' });
    const { sent, send } = recorder({ operator_id: 'opr_2', setup_url: 'http://localhost:8080/ops/setup#token' });
    assert.deepEqual(await runAdmin(['operator', 'create', '--email', 'ops2@example.com'], send), { operator_id: 'opr_2', setup_url: 'http://localhost:8080/ops/setup#token' });
    assert.deepEqual(sent[0]?.data, { email: 'ops2@example.com' });
  });

  it('When an argument is missing or wrong, then it is a usage error and nothing is sent', async () => {
    const { sent, send } = recorder({});
    const wrong: string[][] = [
      ['user', 'create', MERCHANT, '--email', 'a@shop.example'],
      ['user', 'create', MERCHANT, '--email', 'a@shop.example', '--role', 'admin'],
      ['user', 'create', MERCHANT, '--role', 'owner'],
      ['user', 'create', '--email', 'a@shop.example', '--role', 'owner'],
      ['user', 'create', MERCHANT, 'mer_other', '--email', 'a@shop.example', '--role', 'owner'],
      ['user', 'create', MERCHANT, '--email', 'a@shop.example', '--role', 'owner', '--merchant', MERCHANT],
      ['operator', 'create'],
      ['operator', 'create', 'ops@example.com'],
      ['operator', 'create', '--email', 'ops@example.com', '--role', 'owner'],
    ];
    for (const argv of wrong) await assert.rejects(runAdmin(argv, send), UsageError, argv.join(' '));
    assert.deepEqual(sent, []);
  });

  it('When the executable is given a bad role, then it exits 2 with the usage, which lists both commands', () => {
    const result = spawnSync(process.execPath, [`${repoRoot}packages/gateway-admin/bin/gateway-admin.js`, 'user', 'create', MERCHANT, '--email', 'a@shop.example', '--role', 'root'], {
      encoding: 'utf8',
      env: { ...process.env, OPERATOR_KEY: '' },
    });
    assert.equal(result.status, 2);
    assert.deepEqual(JSON.parse(result.stderr.split('\n')[0] ?? '{}'), { error: 'usage', detail: '--role must be owner, developer or viewer' });
    assert.ok(USAGE.includes('user create MERCHANT_ID --email E --role owner|developer|viewer [--password P]'));
    assert.ok(USAGE.includes('operator create --email E [--password P]'));
    assert.ok(result.stderr.includes(USAGE));
  });
});
