/**
 * `gateway-admin terminal probe` (an operator going live, D30): the merchant's
 * live terminal is asked getOrderStatusExtended.do about an order the operator
 * knows, and the CLI prints how that deployment writes its answer. Here the
 * live terminals are the sandbox's (as in every test system), so the answer
 * has the shapes the sandbox gives. Nothing is charged, nothing stored, no
 * card data printed or logged; a merchant without a live terminal, or unknown,
 * is refused.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIVE_TERMINAL, pollUntil, runGatewayAdmin, TestSystem } from '@gateway/testkit';

interface Probe {
  merchant_id: string;
  terminal: { user_name: string; active: boolean; rejected: boolean };
  acquirer_url: string;
  credentials: string;
  error_fields: { field: string; type: string; code: number | null }[];
  error_message: string | null;
  order_found: boolean;
  order_status: number | null;
  payment_amount_info: boolean;
  card_number: { field: string; masked: boolean } | null;
  shape: Record<string, string | Record<string, string>>;
}

const HOLDER = 'Amina Ben Salah';

describe('gateway-admin terminal probe, against the sandbox as a live terminal', function () {
  this.timeout(60_000);
  let system: TestSystem;

  before(async () => {
    system = await TestSystem.start({ services: ['api-gateway', 'webhook-dispatcher', 'acquirer-adapter', 'epg-sandbox'] });
  });
  after(async () => {
    await system?.shutdown();
  });

  /** The CLI in a process of its own, as an operator runs it. */
  async function probe(...args: string[]): Promise<{ code: number | null; out: Probe | undefined; error: { error: string; detail: string } | undefined; stdout: string }> {
    const env = { ...process.env, AMQP_URL: system.env['AMQP_URL'], BROKER_PREFIX: system.prefix, OPERATOR_KEY: system.operatorKey, OPERATOR_NAME: 'going-live' };
    const run = await runGatewayAdmin(['terminal', 'probe', ...args], env);
    const error = run.stderr ? (JSON.parse(run.stderr.split('\n')[0] ?? '{}') as { error: string; detail: string }) : undefined;
    return { code: run.status, out: run.stdout ? (JSON.parse(run.stdout) as Probe) : undefined, error, stdout: run.stdout };
  }

  /** A merchant approved for live mode whose live terminal is the sandbox's. */
  async function liveMerchant(): Promise<string> {
    const { merchantId } = await system.newMerchant();
    await system.approveLive(merchantId, { terminal: true });
    return merchantId;
  }

  /** An order paid with `pan` at the live terminal, as a payment of the merchant's makes one. */
  async function paidOrder(pan: string): Promise<{ orderNumber: string; orderId: string }> {
    const orderNumber = `PRB-${randomBytes(3).toString('hex').toUpperCase()}-1`;
    const registered = await system.sandboxCall('register.do', { orderNumber, amount: '12500', currency: '788', returnUrl: 'https://shop.example.tn/back', language: 'fr' }, LIVE_TERMINAL);
    const orderId = String(registered['orderId']);
    const fields = { MDORDER: orderId, $PAN: pan, $CVC: '123', YYYY: '2034', MM: '12', TEXT: HOLDER, language: 'fr', ip: '203.0.113.7', email: 'buyer@example.tn' };
    await system.sandboxCall('paymentorder.do', fields, LIVE_TERMINAL);
    return { orderNumber, orderId };
  }

  it('when a paid order is probed by its number and by its id, then both print how the terminal writes its answer, and nothing is charged, stored or shown of the card', async () => {
    const merchantId = await liveMerchant();
    const order = await paidOrder('4111111111111111');
    const answer = await system.sandboxCall('getOrderStatusExtended.do', { orderNumber: order.orderNumber }, LIVE_TERMINAL);
    const card = answer['cardAuthInfo'] as Record<string, unknown>;
    const [terminalBefore] = await system.db.query('SELECT user_name, active, rejected_at, updated_at FROM acquirer.terminals WHERE merchant_id = $1', [merchantId]);

    const byNumber = await probe('--merchant', merchantId, '--order-number', order.orderNumber);
    assert.equal(byNumber.code, 0, JSON.stringify(byNumber.error));
    const { shape, ...told } = byNumber.out as Probe;
    assert.deepEqual(told, {
      merchant_id: merchantId,
      terminal: { user_name: LIVE_TERMINAL.user, active: true, rejected: false },
      acquirer_url: `${system.sandboxUrl}/payment/rest`,
      credentials: 'accepted',
      error_fields: [{ field: 'errorCode', type: typeof answer['errorCode'], code: 0 }],
      error_message: answer['errorMessage'] ?? null,
      order_found: true,
      order_status: 2,
      payment_amount_info: true,
      card_number: { field: 'maskedPan', masked: true },
    });
    // Every member of the answer, by its type; cardAuthInfo's own members by name, never their values.
    assert.deepEqual(Object.keys(shape), Object.keys(answer));
    assert.deepEqual([shape['orderStatus'], shape['orderNumber']], [typeof answer['orderStatus'], 'string']);
    assert.deepEqual(Object.keys(shape['cardAuthInfo'] as object), Object.keys(card));

    const byId = await probe('--merchant', merchantId, '--order-id', order.orderId);
    assert.deepEqual(byId.out, byNumber.out, 'the same order, the same answer');

    // Nothing charged, nothing stored: the order at the acquirer is as it was, the adapter has no order of it, the terminal is untouched.
    assert.deepEqual(await system.sandboxCall('getOrderStatusExtended.do', { orderNumber: order.orderNumber }, LIVE_TERMINAL), answer);
    assert.deepEqual(await system.db.query('SELECT 1 FROM acquirer.orders WHERE merchant_id = $1', [merchantId]), []);
    assert.deepEqual(await system.db.query('SELECT user_name, active, rejected_at, updated_at FROM acquirer.terminals WHERE merchant_id = $1', [merchantId]), [terminalBefore]);

    // No card data printed; the probe logged, the card and the password nowhere.
    for (const data of ['4111111111111111', String(card['maskedPan']), String(card['cardholderName']), String(card['expiration']), HOLDER, LIVE_TERMINAL.password]) {
      assert.equal(byNumber.stdout.includes(data), false, `${data} printed`);
    }
    const adapterLog = () => readFileSync(join(system.logDir, 'acquirer-adapter.log'), 'utf8');
    await pollUntil(() => adapterLog().split('\n').filter((line) => line.includes('live terminal probed') && line.includes(merchantId)).length === 2, 5_000, 'both probes logged');
    for (const file of readdirSync(system.logDir)) {
      const text = readFileSync(join(system.logDir, file), 'utf8');
      for (const data of ['4111111111111111', LIVE_TERMINAL.password]) assert.equal(text.includes(data), false, `${data} in ${file}`);
    }
  });

  it('when a Mastercard order is probed, then the member that carries its card number is the one the sandbox writes (maskedPan, or only pan), masked', async () => {
    const merchantId = await liveMerchant();
    const order = await paidOrder('5555555555554444');
    const card = (await system.sandboxCall('getOrderStatusExtended.do', { orderId: order.orderId }, LIVE_TERMINAL))['cardAuthInfo'] as Record<string, unknown>;
    const probed = await probe('--merchant', merchantId, '--order-id', order.orderId);
    assert.equal(probed.code, 0, JSON.stringify(probed.error));
    assert.deepEqual(probed.out?.card_number, { field: 'maskedPan' in card ? 'maskedPan' : 'pan', masked: true });
    assert.equal(probed.stdout.includes('5555555555554444'), false);
  });

  it('when the order is unknown to the terminal, then the credentials were accepted and no order was found (errorCode 6)', async () => {
    const merchantId = await liveMerchant();
    const probed = await probe('--merchant', merchantId, '--order-number', 'NO-SUCH-ORDER-1');
    assert.equal(probed.code, 0, JSON.stringify(probed.error));
    assert.deepEqual(
      [probed.out?.credentials, probed.out?.order_found, probed.out?.order_status, probed.out?.card_number, probed.out?.error_fields.map((f) => [f.field, f.code])],
      ['accepted', false, null, null, [['errorCode', 6]]],
    );
  });

  it('when the terminal has credentials the acquirer refuses, then the probe says so, and stores nothing: the terminal is not marked refused', async () => {
    const { merchantId } = await system.newMerchant();
    await system.admin(['terminal', 'set', merchantId, '--mode', 'live', '--user', LIVE_TERMINAL.user, '--password', 'not-the-password', '--inactive']);
    const probed = await probe('--merchant', merchantId, '--order-number', 'ANY-ORDER-1');
    assert.equal(probed.code, 0, JSON.stringify(probed.error));
    assert.deepEqual([probed.out?.credentials, probed.out?.terminal, probed.out?.error_fields.map((f) => f.code)], ['rejected', { user_name: LIVE_TERMINAL.user, active: false, rejected: false }, [5]]);
    assert.deepEqual(await system.db.query('SELECT rejected_at FROM acquirer.terminals WHERE merchant_id = $1', [merchantId]), [{ rejected_at: null }]);
    assert.equal(probed.stdout.includes('not-the-password'), false);
  });

  it("when the merchant has only test mode, or is unknown, then it is refused (exit 1) and only the refusal is audited; a merchant's dashboard user may not probe; a malformed command is a usage error (exit 2)", async () => {
    const { merchantId } = await system.newMerchant();
    const testOnly = await probe('--merchant', merchantId, '--order-number', 'ANY-ORDER-1');
    assert.deepEqual([testOnly.code, testOnly.out, testOnly.error?.error], [1, undefined, 'no-terminal-configured']);
    assert.match(testOnly.error?.detail ?? '', /no live terminal/);

    const unknown = await probe('--merchant', `mer_${'z'.repeat(24)}`, '--order-number', 'ANY-ORDER-1');
    assert.deepEqual([unknown.code, unknown.error?.error], [1, 'not-found']);

    const usage = await probe('--merchant', merchantId, '--order-number', 'N1', '--order-id', 'I1');
    assert.deepEqual([usage.code, usage.error?.error], [2, 'usage']);

    // A probe uses the merchant's live credentials: for operators only, never a merchant's dashboard user.
    const live = await liveMerchant();
    const owner = { type: 'user', id: 'usr_probetest', email: 'owner@shop.example', address: '203.0.113.9', merchantId: live } as const;
    await assert.rejects(system.sendFor(owner, 'terminal.probe', { merchant_id: live, order_number: 'ANY-ORDER-1' }), (err: unknown) => (err as { code?: string }).code === 'forbidden');

    // Reads are audited only when refused (like terminal.get): the refusal is there, with its code.
    await pollUntil(
      async () => (await system.db.query('SELECT 1 FROM api_gateway.audit_log WHERE merchant_id = $1 AND action = $2', [merchantId, 'terminal.probe'])).length > 0,
      10_000,
      'the refused probe audited',
    );
    assert.deepEqual(await system.db.query('SELECT outcome FROM api_gateway.audit_log WHERE merchant_id = $1 AND action = $2', [merchantId, 'terminal.probe']), [{ outcome: 'no-terminal-configured' }]);
  });
});
