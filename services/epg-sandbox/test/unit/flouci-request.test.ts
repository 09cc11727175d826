import assert from 'node:assert/strict';
import { authenticateApp } from '../../src/domain/flouci/flouci-apps.js';
import { FlouciError } from '../../src/domain/flouci/flouci-error.js';
import { flag, millimes, optionalWebUrl, positiveSeconds, trackingId, webUrl } from '../../src/domain/flouci/request-fields.js';
import { generatedPayment } from '../../src/domain/flouci/wallet-payment.js';
import { WalletPaymentStore } from '../../src/domain/flouci/wallet-payment.store.js';

/** The reader's value, or the message it refuses with. */
function read<T>(act: () => T): T | string {
  try {
    return act();
  } catch (err) {
    assert.ok(err instanceof FlouciError, String(err));
    return err.message;
  }
}

describe('Flouci request fields', () => {
  it('When an amount is a positive integer of millimes, as a number or digits, then it is taken; anything else is refused', () => {
    for (const [value, expected] of [
      [1, 1],
      [125500, 125500],
      ['125500', 125500],
      [999_999_999, 999_999_999],
    ] as const) {
      assert.equal(read(() => millimes({ amount: value }, 'amount')), expected);
    }
    for (const value of [undefined, null, 0, -1, 1.5, '1.5', '', ' 12', '0x10', '1e3', 1e21, 1_000_000_000, true, [1000], { v: 1 }]) {
      assert.equal(read(() => millimes({ amount: value }, 'amount')), 'amount must be a positive integer of millimes', JSON.stringify(value));
    }
  });

  it('When session_timeout_secs is absent, then the default; a positive integer up to the bound, taken; else refused', () => {
    assert.equal(positiveSeconds({}, 's', 1200, 86_400), 1200);
    assert.equal(positiveSeconds({ s: 1 }, 's', 1200, 86_400), 1);
    assert.equal(positiveSeconds({ s: '600' }, 's', 1200, 86_400), 600);
    assert.equal(positiveSeconds({ s: 86_400 }, 's', 1200, 86_400), 86_400);
    for (const value of [0, -5, 2.5, 86_401, '', 'x', '-1', null, false]) assert.match(String(read(() => positiveSeconds({ s: value }, 's', 1200, 86_400))), /^s must be a positive integer/, JSON.stringify(value));
  });

  it('When links are read, then only absolute http(s) URLs with a host are taken; an optional one may be absent', () => {
    assert.equal(webUrl({ u: 'https://m.example/ok?x=1' }, 'u'), 'https://m.example/ok?x=1');
    assert.equal(webUrl({ u: 'http://127.0.0.1:9000/hook' }, 'u'), 'http://127.0.0.1:9000/hook');
    assert.equal(read(() => webUrl({}, 'u')), 'u is required');
    for (const value of ['/ok', 'm.example/ok', 'ftp://m.example/', 'javascript:alert(1)', 'https://', `https://m.example/${'x'.repeat(2048)}`, 5]) {
      assert.equal(read(() => webUrl({ u: value }, 'u')), 'u must be an absolute http(s) URL', String(value));
    }
    assert.equal(optionalWebUrl({}, 'u'), undefined);
  });

  it('When flags and the tracking id are read, then flags are JSON booleans (absent false), the tracking id a non-empty string', () => {
    assert.deepEqual([flag({}, 'f'), flag({ f: true }, 'f'), flag({ f: false }, 'f')], [false, true, false]);
    for (const value of ['true', 1, null]) assert.equal(read(() => flag({ f: value }, 'f')), 'f must be a boolean');
    assert.equal(trackingId({ t: 'att-1' }, 't'), 'att-1');
    for (const value of [undefined, '', '   ', 12]) assert.equal(read(() => trackingId({ t: value }, 't')), 't is required');
    assert.match(String(read(() => trackingId({ t: 'x'.repeat(256) }, 't'))), /at most 255/);
  });
});

describe('Flouci applications', () => {
  const apps = new Map([
    ['pub-a', 'priv-a'],
    ['pub-b', 'priv:b'],
  ]);

  it('When the header is Bearer PUBLIC:PRIVATE of a known application, then its public key; anything else, undefined', () => {
    assert.equal(authenticateApp(apps, 'Bearer pub-a:priv-a'), 'pub-a');
    assert.equal(authenticateApp(apps, 'bearer pub-b:priv:b'), 'pub-b');
    assert.equal(authenticateApp(apps, '  Bearer   pub-a:priv-a  '), 'pub-a');
    for (const header of [undefined, '', 'pub-a:priv-a', 'Bearer pub-a', 'Bearer pub-a:', 'Bearer :priv-a', 'Bearer pub-a:priv-b', 'Bearer pub-a:priv-a2', 'Bearer pub-c:priv-a', 'Bearer pub-a:priv a', 'Basic pub-a:priv-a']) {
      assert.equal(authenticateApp(apps, header), undefined, String(header));
    }
  });
});

describe('Flouci payment store', () => {
  const payment = (app: string) => generatedPayment({ app, amount: 1, developerTrackingId: 't', successLink: 'https://m.example/ok', failLink: 'https://m.example/ko', webhook: undefined, preAuth: false, generatedAt: 0, expiresAt: 1 });

  it("When an application asks for another's payment, then it is unknown; its page finds it by id alone", () => {
    const store = new WalletPaymentStore(10);
    const p = payment('a');
    store.add(p);
    assert.equal(store.byId('a', p.paymentId), p);
    assert.equal(store.byId('b', p.paymentId), undefined);
    assert.equal(store.byIdAnyApp(p.paymentId), p);
  });

  it('When more payments than the retention are added, then the oldest are forgotten', () => {
    const store = new WalletPaymentStore(2);
    const [first, second, third] = [payment('a'), payment('b'), payment('a')];
    for (const p of [first, second, third]) store.add(p);
    assert.equal(store.size, 2);
    assert.equal(store.byIdAnyApp(first.paymentId), undefined);
    assert.deepEqual([store.byId('b', second.paymentId), store.byId('a', third.paymentId)], [second, third]);
    assert.throws(() => new WalletPaymentStore(0), RangeError);
  });
});
