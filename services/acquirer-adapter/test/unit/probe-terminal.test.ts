/**
 * terminal.probe's use case: which terminal it asks (the merchant's live one,
 * whatever its state, at the live acquirer), what it refuses, and how an
 * acquirer that gives no usable answer is told, with nothing written anywhere.
 */
import assert from 'node:assert/strict';
import type { ProbedAnswer } from '@gateway/contracts';
import { createLogger } from '@gateway/observability';
import { AcquirerUnreachable, type CardConnector, type Terminal } from '../../src/acquirer/acquirer.js';
import type { TerminalRow } from '../../src/db/terminal.repository.js';
import type { AdapterDeps } from '../../src/domain/deps.js';
import { probeTerminal } from '../../src/domain/probe-terminal.js';

const MERCHANT = `mer_${'q'.repeat(24)}`;
const LIVE_URL = 'https://ipay.clictopay.com/payment/rest/';

const ANSWER: ProbedAnswer = {
  credentials: 'accepted',
  error_fields: [{ field: 'ErrorCode', type: 'number', code: 0 }],
  error_message: null,
  order_found: true,
  order_status: 2,
  payment_amount_info: false,
  card_number: { field: 'pan', masked: true },
  shape: { ErrorCode: 'number', orderStatus: 'number' },
};

/** Deps whose terminals hold `row` only (and write nothing: any write throws), with an acquirer answering `answer`. */
function depsWith(row: TerminalRow | undefined, answer: () => Promise<ProbedAnswer> = async () => ANSWER) {
  const asked: { terminal: Terminal; order: unknown }[] = [];
  const acquirer: Pick<CardConnector, 'probeOrderStatus'> = {
    probeOrderStatus: async (terminal, order) => (asked.push({ terminal, order }), answer()),
  };
  const refuse = () => {
    throw new Error('a probe writes nothing');
  };
  const deps = {
    terminals: { find: async (merchantId: string, livemode: boolean) => (merchantId === MERCHANT && livemode ? row : undefined), upsert: refuse, markRejected: refuse },
    acquirer,
    sandbox: { baseUrl: 'http://sandbox/payment/rest/', userName: 'gateway-test', password: 'sandbox' },
    liveUrl: LIVE_URL,
    log: createLogger({ service: 'test', level: 'silent' }),
  } as unknown as AdapterDeps;
  return { deps, asked };
}

const TERMINAL: TerminalRow = { user_name: 'shop-live', password: 'live-secret', active: false, rejected_at: new Date('2025-03-04T09:00:00Z'), updated_at: new Date() };

const codeOf = (code: string) => (err: unknown) => (err as { code?: string }).code === code;

describe('terminal.probe', () => {
  it('when the live terminal is inactive and was refused before, then it is probed all the same, at the live acquirer, and the answer told with the terminal it came from', async () => {
    const { deps, asked } = depsWith(TERMINAL);
    assert.deepEqual(await probeTerminal(deps, { merchant_id: MERCHANT, order_number: 'DZ-7K3M9Q-1' }), {
      merchant_id: MERCHANT,
      terminal: { user_name: 'shop-live', active: false, rejected: true },
      acquirer_url: LIVE_URL,
      ...ANSWER,
    });
    assert.deepEqual(asked, [{ terminal: { baseUrl: LIVE_URL, userName: 'shop-live', password: 'live-secret' }, order: { orderNumber: 'DZ-7K3M9Q-1' } }]);
    await probeTerminal(deps, { merchant_id: MERCHANT, order_id: 'o-1' });
    assert.deepEqual(asked[1]?.order, { orderId: 'o-1' });
  });

  it('when the merchant has no live terminal (test mode only, or unknown), then it is refused and the acquirer is not asked', async () => {
    const { deps, asked } = depsWith(undefined);
    await assert.rejects(probeTerminal(deps, { merchant_id: MERCHANT, order_number: 'N1' }), codeOf('no-terminal-configured'));
    assert.deepEqual(asked, []);
  });

  it('when the order is named by both or neither, then it is a validation error and the acquirer is not asked', async () => {
    const { deps, asked } = depsWith(TERMINAL);
    await assert.rejects(probeTerminal(deps, { merchant_id: MERCHANT }), codeOf('validation-error'));
    await assert.rejects(probeTerminal(deps, { merchant_id: MERCHANT, order_number: 'N1', order_id: 'I1' }), codeOf('validation-error'));
    assert.deepEqual(asked, []);
  });

  it('when the acquirer gives no usable answer, then the operator is told why (processor-unavailable), never with the credentials', async () => {
    const { deps } = depsWith(TERMINAL, async () => {
      throw new AcquirerUnreachable('getOrderStatusExtended.do', 'HTTP 404', true);
    });
    await assert.rejects(probeTerminal(deps, { merchant_id: MERCHANT, order_number: 'N1' }), (err: unknown) => {
      const { code, detail } = err as { code: string; detail: string };
      assert.equal(code, 'processor-unavailable');
      assert.match(detail, /getOrderStatusExtended\.do: HTTP 404/);
      assert.equal(detail.includes('live-secret'), false);
      return true;
    });
  });
});
