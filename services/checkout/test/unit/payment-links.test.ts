/** Payment links' pure parts (D19): the create request's checks, when a link is closed, its page. */
import assert from 'node:assert/strict';
import { checkLinkRequest } from '../../src/domain/payment-link-request.js';
import type { PaymentLinkPageView } from '../../src/domain/pay-by-payment-link.js';
import { closedReason, priceText } from '../../src/domain/payment-links.js';
import { pageTranslator, renderPaymentLinkNoticePage, renderPaymentLinkPage } from '../../src/pages/index.js';

const NOW = new Date('2026-11-27T10:00:00Z');

function errorsOf(body: unknown, livemode = false): [string, string][] {
  const check = checkLinkRequest(body, livemode, NOW);
  return check.ok ? [] : check.errors.map((e) => [e.field, e.code]);
}

function view(overrides: Partial<PaymentLinkPageView> = {}): PaymentLinkPageView {
  return {
    merchantName: 'Dar Zitouna',
    description: 'Olive oil, 1 l',
    price: { amount: '32.000', currency: 'TND' },
    items: [],
    collectPhone: false,
    livemode: false,
    actionUrl: '/pay/AbCdEfGhIjKlMnOp',
    values: {},
    fieldErrors: {},
    ...overrides,
  };
}

describe('payment links', () => {
  describe('the create request', () => {
    it('when a fixed price or an open amount is well formed, then it passes, the price at its currency precision', () => {
      const fixed = checkLinkRequest({ description: 'Bag', amount: '12.50', currency: 'eur', max_payments: 1 }, false, NOW);
      assert.ok(fixed.ok);
      assert.deepEqual([fixed.link.price?.text, fixed.link.price?.currency.code], ['12.50', 'EUR']);
      const open = checkLinkRequest({ description: 'Tip', open_amount: true, amount_min: '1.000', amount_max: '50.000', expires_at: '2027-01-01T00:00:00Z' }, false, NOW);
      assert.ok(open.ok);
      assert.deepEqual([open.link.min, open.link.max, open.link.expiresAt?.toISOString()], ['1.000', '50.000', '2027-01-01T00:00:00.000Z']);
    });

    it('when amounts are wrong, then each field says how: precision, type, format, value, size, bounds', () => {
      assert.deepEqual(errorsOf({ description: 'x', amount: '1.5000' }), [['amount', 'invalid_precision']]);
      assert.deepEqual(errorsOf({ description: 'x', amount: 3 }), [['amount', 'invalid_type']]);
      assert.deepEqual(errorsOf({ description: 'x', amount: '1,000.000' }), [['amount', 'invalid_format']]);
      assert.deepEqual(errorsOf({ description: 'x', amount: '0.000' }), [['amount', 'invalid_value']]);
      assert.deepEqual(errorsOf({ description: 'x', amount: '1000000.000' }), [['amount', 'amount_too_large']]);
      assert.deepEqual(errorsOf({ description: 'x', amount: '1.000', currency: 'XYZ' }), [['currency', 'invalid']]);
      assert.deepEqual(errorsOf({ description: 'x', open_amount: true, amount_min: '2.00', amount_max: '1.000' }), [['amount_min', 'invalid_precision']]);
      assert.deepEqual(errorsOf({ description: 'x', open_amount: true, amount_min: '2.000', amount_max: '1.000' }), [['amount_max', 'invalid']]);
      assert.deepEqual(errorsOf({ description: 'x', amount: '1.000', amount_max: '1.000' }), [['amount_max', 'invalid']]);
      assert.deepEqual(errorsOf({ description: 'x', open_amount: true, currency: 'EUR' }), [['currency', 'invalid']]);
    });

    it('when many fields are wrong, then every one is reported once, in request order, unknown fields included', () => {
      assert.deepEqual(errorsOf({ zeta: 1, max_payments: 1.5, description: 'y'.repeat(501), amount: 'abc', locale: 'de', collect_phone: 'yes', metadata: { k: 1 } }), [
        ['zeta', 'invalid'],
        ['max_payments', 'invalid'],
        ['description', 'invalid'],
        ['amount', 'invalid_format'],
        ['locale', 'invalid'],
        ['collect_phone', 'invalid'],
        ['metadata', 'invalid'],
      ]);
      assert.deepEqual(errorsOf([]), [['body', 'invalid']]);
      assert.deepEqual(errorsOf({ amount: '1.000' }), [['description', 'required']]);
    });

    it('when a return_url or an expiry is not acceptable, then it is refused: https only in live mode, no past expiry', () => {
      assert.deepEqual(errorsOf({ description: 'x', amount: '1.000', return_url: 'http://shop.example/' }, true), [['return_url', 'invalid']]);
      assert.deepEqual(errorsOf({ description: 'x', amount: '1.000', return_url: 'http://shop.example/' }, false), []);
      assert.deepEqual(errorsOf({ description: 'x', amount: '1.000', expires_at: '2026-11-27T09:59:59Z' }), [['expires_at', 'invalid']]);
      assert.deepEqual(errorsOf({ description: 'x', amount: '1.000', expires_at: 'tomorrow' }), [['expires_at', 'invalid']]);
    });
  });

  describe('a link', () => {
    it('when it is deactivated, past its expiry or paid max_payments times, then it is closed, and why', () => {
      const open = { active: true, expires_at: null, max_payments: null, payments_count: 0 };
      assert.equal(closedReason(open, NOW), undefined);
      assert.equal(closedReason({ ...open, active: false }, NOW), 'deactivated');
      assert.equal(closedReason({ ...open, expires_at: NOW }, NOW), 'expired');
      assert.equal(closedReason({ ...open, max_payments: 1, payments_count: 1 }, NOW), 'used');
      assert.equal(closedReason({ ...open, max_payments: 2, payments_count: 1 }, NOW), undefined);
    });

    it('when a stored price is shown, then it has its currency precision again', () => {
      assert.deepEqual([priceText('12.500', 'EUR'), priceText('1000.000', 'JPY'), priceText('7.250', 'TND')], ['12.50', '1000', '7.250']);
    });
  });

  describe('its page', () => {
    it('when the merchant wrote markup, then the page shows it as text, and loads nothing but the stylesheet', () => {
      const html = renderPaymentLinkPage(pageTranslator('en'), view({ merchantName: '<img src=x onerror=alert(1)>', description: '<script>alert(1)</script>', items: [{ name: '<b>x</b>', quantity: 2 }] }));
      assert.ok(!/<script|<img|<b>/.test(html));
      assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
      assert.deepEqual([...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]), ['/checkout/assets/checkout.css']);
    });

    it('when the link asks for a phone or an amount, then those fields are labelled too; a fixed price shows no amount field', () => {
      const fixed = renderPaymentLinkPage(pageTranslator('en'), view());
      assert.deepEqual([...fixed.matchAll(/<label for="([a-z_]+)">([^<]+)<\/label>/g)].map((m) => m[2]), ['First name', 'Last name', 'Email']);
      assert.match(fixed, /<button type="submit" class="pay">Continue/);
      const open = renderPaymentLinkPage(pageTranslator('en'), view({ price: undefined, bounds: { min: '5.000' }, collectPhone: true }));
      assert.deepEqual([...open.matchAll(/<label for="([a-z_]+)">([^<]+)<\/label>/g)].map((m) => m[2]), ['First name', 'Last name', 'Email', 'Phone', 'Amount']);
      assert.match(open, /In TND, at least TND\u00a05\.000/);
    });

    it('when it is Arabic, then it is right to left and says what is wrong in Arabic, the values typed put back escaped', () => {
      const html = renderPaymentLinkPage(pageTranslator('ar'), view({ price: undefined, bounds: { max: '100.000' }, values: { first_name: '"><x', amount: '500.000' }, fieldErrors: { email: 'required', amount: 'too_large' } }));
      assert.match(html, /<html lang="ar" dir="rtl">/);
      assert.match(html, /هذا الحقل إلزامي\./);
      assert.match(html, /يجب ألا يتجاوز المبلغ/);
      assert.match(html, /value="&quot;&gt;&lt;x"/);
      assert.match(html, /<title>خطأ: /);
    });

    it('when a link is closed or flooded, then its notice page says so in the page language', () => {
      assert.match(renderPaymentLinkNoticePage(pageTranslator('fr'), 'closed'), /Ce lien de paiement n’est plus disponible/);
      assert.match(renderPaymentLinkNoticePage(pageTranslator('en'), 'limited'), /Too many attempts/);
    });
  });
});
