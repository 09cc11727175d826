/**
 * Where a payment goes, without servers (D8, D13): test mode to the built-in
 * sandbox terminal, live mode to the merchant's own terminal when it can take
 * a payment; the acquirer order number each terminal sees; and the pricing a
 * payment's fee is taken at.
 */
import assert from 'node:assert/strict';
import type { StartedAttempt } from '@gateway/contracts';
import { computeFee } from '@gateway/money';
import type { Terminal } from '../../src/acquirer/acquirer.js';
import type { TerminalRow } from '../../src/db/terminal.repository.js';
import { acquirerOrderNumber } from '../../src/domain/new-order.js';
import type { AdapterDeps } from '../../src/domain/deps.js';
import { pricingOf } from '../../src/domain/finish-order.js';
import { liveTerminal, resolveTerminal } from '../../src/domain/terminals.js';

const LIVE_URL = 'https://acquirer.example.tn/payment/rest/';
const sandbox: Terminal = { baseUrl: 'http://epg-sandbox:8080/payment/rest/', userName: 'gateway-test', password: 'sandbox-secret' };

function row(overrides: Partial<TerminalRow> = {}): TerminalRow {
  return { user_name: 'shop-api', password: 'live-secret', active: true, rejected_at: null, updated_at: new Date('2026-11-01T00:00:00Z'), ...overrides };
}

/** Routing dependencies whose terminal store answers `stored` and records who asked. */
function deps(stored: TerminalRow | undefined) {
  const asked: Array<[string, boolean]> = [];
  const terminals = { find: async (merchantId: string, livemode: boolean) => (asked.push([merchantId, livemode]), stored) };
  return { deps: { sandbox, liveUrl: LIVE_URL, terminals } as unknown as AdapterDeps, asked };
}

describe('Terminal routing', () => {
  it('when the payment is in test mode, then it goes to the sandbox terminal without looking at any merchant terminal', async () => {
    const { deps: routing, asked } = deps(row());
    assert.deepEqual(await resolveTerminal(routing, 'mer_1', false), { status: 'active', terminal: sandbox });
    assert.deepEqual(asked, []);
  });

  it("when the payment is live and the merchant's terminal is usable, then it goes to the live acquirer with the merchant's credentials", async () => {
    const { deps: routing, asked } = deps(row());
    assert.deepEqual(await resolveTerminal(routing, 'mer_1', true), {
      status: 'active',
      terminal: { baseUrl: LIVE_URL, userName: 'shop-api', password: 'live-secret' },
    });
    assert.deepEqual(asked, [['mer_1', true]]);
  });

  it('when the merchant has no live terminal, an inactive one or one whose credentials were refused, then a live payment cannot be routed', () => {
    assert.deepEqual(liveTerminal(undefined, LIVE_URL), { status: 'missing' });
    assert.deepEqual(liveTerminal(row({ active: false }), LIVE_URL), { status: 'inactive' });
    assert.deepEqual(liveTerminal(row({ rejected_at: new Date() }), LIVE_URL), { status: 'rejected' });
  });

  it('when a terminal is both inactive and refused, then it reads inactive: the operator switched it off', () => {
    assert.deepEqual(liveTerminal(row({ active: false, rejected_at: new Date() }), LIVE_URL), { status: 'inactive' });
  });
});

describe('Acquirer order numbers', () => {
  function attempt(overrides: Partial<StartedAttempt> = {}): StartedAttempt {
    return {
      attempt_id: 'pa_1',
      attempt_number: 2,
      session_id: 'ps_1',
      merchant_id: 'mer_0000000000000000ABCDEFGH',
      livemode: true,
      order_number: 'SHP-7K2M9Q',
      amount: '10.000',
      description: '',
      ...overrides,
    };
  }

  it("when live, then the order number is the session's plus the attempt number: the terminal is the merchant's own", () => {
    assert.equal(acquirerOrderNumber(attempt()), 'SHP-7K2M9Q-2');
  });

  it("when in test mode, then the merchant id's tail comes first, so two merchants' equal order numbers stay apart on the shared sandbox", () => {
    assert.equal(acquirerOrderNumber(attempt({ livemode: false })), 'ABCDEFGH-SHP-7K2M9Q-2');
    assert.notEqual(acquirerOrderNumber(attempt({ livemode: false })), acquirerOrderNumber(attempt({ livemode: false, merchant_id: 'mer_0000000000000000ZYXWVUTS' })));
  });

  it('when the same session is paid again, then each attempt has its own acquirer order', () => {
    assert.notEqual(acquirerOrderNumber(attempt({ attempt_number: 1 })), acquirerOrderNumber(attempt({ attempt_number: 2 })));
  });
});

describe('The pricing a payment is charged', () => {
  const defaultPricing = { percent: '1.8', fixed: '0.500' };

  it("when the merchant has its own pricing, then the fee is taken at it, not at the default", () => {
    const pricing = pricingOf({ pricing_percent: '2.5', pricing_fixed: '0.300' }, defaultPricing);
    assert.deepEqual(pricing, { percent: '2.5', fixed: '0.300' });
    assert.deepEqual(computeFee('100.000', pricing), { fee: '2.800', net: '97.200' });
  });

  it('when the merchant has none, then the default pricing applies', () => {
    assert.equal(pricingOf({ pricing_percent: null, pricing_fixed: null }, defaultPricing), defaultPricing);
    assert.deepEqual(computeFee('100.000', pricingOf({ pricing_percent: null, pricing_fixed: null }, defaultPricing)), { fee: '2.300', net: '97.700' });
  });
});
