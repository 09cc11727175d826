import assert from 'node:assert/strict';
import { TEST_CARDS } from '@gateway/test-cards';
import { escapeHtml } from '@gateway/runtime';
import {
  CHECKOUT_CSS,
  HAND_OFF_SCRIPT_PATH,
  pageTranslator,
  renderBankPage,
  renderBankRefusedPage,
  renderCheckoutLinkExpiredPage,
  renderErrorPage,
  renderMethodPage,
  renderOutcomePage,
  renderPaymentPage,
  renderProcessingPage,
  renderRedirectPage,
  renderWalletPage,
  renderWalletRefusedPage,
  type OrderView,
  type PaymentPageView,
} from '../../src/pages/index.js';

const STYLESHEET = '/checkout/assets/checkout.css';
const en = pageTranslator('en');

function order(overrides: Partial<OrderView> = {}): OrderView {
  return {
    merchantName: 'Librairie Al Kitab',
    amount: '12.500',
    description: 'Two books',
    items: [
      { name: 'Poems', quantity: 1, unit_price: '7.500' },
      { name: 'Novel', quantity: 2, unit_price: '2.500', description: 'Paperback' },
    ],
    orderNumber: 'ORD-1042',
    livemode: true,
    ...overrides,
  };
}

function paymentView(overrides: Partial<PaymentPageView> = {}): PaymentPageView {
  return { order: order(), actionUrl: '/checkout/pay/tok123', cancelHref: '/checkout/pay/tok123/cancel', ...overrides };
}

function unescapeHtml(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (_, entity: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[entity] ?? '');
}

/** The opening tag of the input named `name`; quoted attribute values are escaped, so they hold no ">". */
function inputTag(html: string, name: string): string {
  const tag = html.match(new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`))?.[0];
  assert.ok(tag, `no input named ${name}`);
  return tag;
}

function attribute(tag: string, name: string): string | undefined {
  const value = tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
  return value === undefined ? undefined : unescapeHtml(value);
}

function elementText(html: string, id: string): string {
  const match = html.match(new RegExp(`<(\\w+)[^>]*\\bid="${id}"[^>]*>([\\s\\S]*?)</\\1>`));
  assert.ok(match, `no element with id ${id}`);
  return unescapeHtml((match[2] ?? '').replace(/<[^>]*>/g, ''));
}

function refreshOf(html: string): { seconds: number; url: string } | undefined {
  const content = html.match(/<meta http-equiv="refresh" content="([^"]*)">/)?.[1];
  if (content === undefined) return undefined;
  const [, seconds, url] = unescapeHtml(content).match(/^(\d+);url=(.*)$/s) ?? [];
  assert.ok(seconds !== undefined && url !== undefined, `bad refresh content ${content}`);
  return { seconds: Number(seconds), url };
}

function linkHref(html: string, text: string): string | undefined {
  const href = html.match(new RegExp(`<a [^>]*href="([^"]*)"[^>]*>${text}</a>`))?.[1];
  return href === undefined ? undefined : unescapeHtml(href);
}

/** Every URL a page points at: href, src, action, and the refresh target. */
function urlsIn(html: string): string[] {
  const attributes = [...html.matchAll(/\s(?:href|src|action|srcset|formaction|poster|data)="([^"]*)"/g)].map((m) => unescapeHtml(m[1] ?? ''));
  const refresh = refreshOf(html);
  return refresh === undefined ? attributes : [...attributes, refresh.url];
}

describe('checkout pages', () => {
  describe('payment page', () => {
    it('When the page renders, then each field has a visible label with the exact text, bound by for/id to the named input', () => {
      const html = renderPaymentPage(en, paymentView());
      const expected = [
        ['Card number', 'card_number'],
        ['Expiry date', 'expiry'],
        ['Security code', 'cvc'],
        ['Name on card', 'cardholder_name'],
      ] as const;
      for (const [label, name] of expected) {
        const id = html.match(new RegExp(`<label for="([^"]+)">${label}</label>`))?.[1];
        assert.ok(id, `no label "${label}"`);
        assert.equal(attribute(inputTag(html, name), 'id'), id);
      }
    });

    it('When the page renders, then the inputs carry the card autocomplete tokens, numeric keyboards, the MM/YY placeholder and the cvc maxlength', () => {
      const html = renderPaymentPage(en, paymentView());
      const card = inputTag(html, 'card_number');
      assert.equal(attribute(card, 'autocomplete'), 'cc-number');
      assert.equal(attribute(card, 'inputmode'), 'numeric');
      const expiry = inputTag(html, 'expiry');
      assert.equal(attribute(expiry, 'autocomplete'), 'cc-exp');
      assert.equal(attribute(expiry, 'placeholder'), 'MM/YY');
      const cvc = inputTag(html, 'cvc');
      assert.equal(attribute(cvc, 'autocomplete'), 'cc-csc');
      assert.equal(attribute(cvc, 'inputmode'), 'numeric');
      assert.equal(attribute(cvc, 'maxlength'), '4');
      assert.equal(attribute(inputTag(html, 'cardholder_name'), 'autocomplete'), 'cc-name');
    });

    it('When the page renders, then the form posts to the action URL and the submit button reads "Pay TND <amount>"', () => {
      const html = renderPaymentPage(en, paymentView());
      const form = html.match(/<form[^>]*>/)?.[0] ?? '';
      assert.equal(attribute(form, 'method'), 'post');
      assert.equal(attribute(form, 'action'), '/checkout/pay/tok123');
      const buttons = [...html.matchAll(/<button type="submit"[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]);
      assert.deepEqual(buttons, ['Pay TND\u00a012.500']);
    });

    it('When the page renders, then a nofollow "Cancel payment" link points at the cancel href after the form', () => {
      const html = renderPaymentPage(en, paymentView());
      assert.equal(linkHref(html, 'Cancel payment'), '/checkout/pay/tok123/cancel');
      const link = html.match(/<a [^>]*>Cancel payment<\/a>/)?.[0] ?? '';
      assert.equal(attribute(link, 'rel'), 'nofollow');
      assert.ok(html.indexOf('</form>') < html.indexOf('Cancel payment'));
    });

    it('When the page renders, then it shows the merchant, the TND amount, description, order number and items with quantity and unit price', () => {
      const html = renderPaymentPage(en, paymentView());
      for (const text of ['Librairie Al Kitab', 'TND\u00a012.500', 'Two books', 'ORD-1042', 'Poems', 'Paperback', 'TND\u00a07.500', 'TND\u00a02.500']) {
        assert.ok(html.includes(text), `missing ${text}`);
      }
      assert.match(html, /<tr><th scope="row">Novel<span[^>]*>Paperback<\/span><\/th><td class="num">2<\/td><td class="num">TND\u00a02\.500<\/td><\/tr>/);
    });

    it('When no item has a unit price, then the items table has no price column', () => {
      const html = renderPaymentPage(en, paymentView({ order: order({ items: [{ name: 'Gift', quantity: 3 }] }) }));
      assert.ok(!html.includes('Unit price'));
      assert.match(html, /<th scope="row">Gift<\/th><td class="num">3<\/td><\/tr>/);
    });

    it('When there are no items, then no items table is rendered', () => {
      assert.ok(!renderPaymentPage(en, paymentView({ order: order({ items: [] }) })).includes('<table'));
    });

    it('When the order was placed in another currency, then an "Ordered as" line shows the original amount and unit prices carry that currency', () => {
      const html = renderPaymentPage(en, paymentView({ order: order({ original: { amount: '3.75', currency: 'EUR' } }) }));
      assert.match(html, /Ordered as EUR\u00a03\.75/);
      assert.ok(html.includes('TND\u00a012.500'));
      assert.ok(html.includes('EUR\u00a07.500'));
    });

    it('When the order is in TND, then there is no "Ordered as" line', () => {
      assert.ok(!renderPaymentPage(en, paymentView()).includes('Ordered as'));
    });

    it('When merchant, description and item text hold markup, then it is shown escaped and never as tags', () => {
      const evil = '<script>alert(1)</script>';
      const html = renderPaymentPage(en, 
        paymentView({
          order: order({ merchantName: evil, description: evil, items: [{ name: evil, quantity: 1, description: evil, unit_price: '1.000' }], orderNumber: evil }),
          notice: evil,
          fieldErrors: { expiry: evil },
        }),
      );
      assert.ok(!/<script/i.test(html));
      const escaped = '&lt;script&gt;alert(1)&lt;/script&gt;';
      assert.ok(html.split(escaped).length - 1 >= 7, 'each value shows escaped');
    });

    it('When attribute values hold quotes, then they stay inside their quoted attribute', () => {
      const html = renderPaymentPage(en, 
        paymentView({
          actionUrl: '/pay?a="x" onmouseover="alert(1)',
          cancelHref: "/cancel?b='y'",
          values: { cardholder_name: 'O\'Brien "Jr" <b>', expiry: '"><img src=x>' },
        }),
      );
      assert.ok(html.includes('action="/pay?a=&quot;x&quot; onmouseover=&quot;alert(1)"'));
      assert.ok(html.includes('href="/cancel?b=&#39;y&#39;"'));
      assert.equal(attribute(inputTag(html, 'cardholder_name'), 'value'), 'O\'Brien "Jr" <b>');
      assert.equal(attribute(inputTag(html, 'expiry'), 'value'), '"><img src=x>');
      assert.ok(!html.includes('<img'));
      const form = html.match(/<form[^>]*>/)?.[0] ?? '';
      assert.equal(attribute(form, 'action'), '/pay?a="x" onmouseover="alert(1)');
      assert.ok(!/\sonmouseover="/.test(html), 'no attribute escaped its quotes');
    });

    it('When the escaping of the pages is given the five special characters, then each becomes an entity', () => {
      assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
      assert.equal(escapeHtml(42), '42');
    });

    it('When the session is in test mode, then a "Test mode" banner lists every test card grouped in fours with its label and the expiry and code rule', () => {
      const html = renderPaymentPage(en, paymentView({ order: order({ livemode: false }) }));
      assert.match(html, /<section class="test-banner"[^>]*>\n<p class="test-banner-title"[^>]*>Test mode<\/p>/);
      assert.match(html, /no real money moves/);
      assert.match(html, /any future expiry date, any 3-digit security code/);
      assert.ok(html.includes('4242 4242 4242 4242'));
      for (const card of TEST_CARDS) {
        const grouped = card.number.match(/.{1,4}/g)?.join(' ') ?? '';
        assert.ok(html.includes(`${grouped}</span> <span class="card-label" lang="en" dir="ltr">${escapeHtml(card.label)}</span>`), `missing ${card.number}`);
      }
      assert.ok(html.indexOf('Test mode') < html.indexOf('<form'), 'the banner comes before the form');
    });

    it('When the session is live, then there is no test banner and no test card', () => {
      const html = renderPaymentPage(en, paymentView());
      assert.ok(!html.includes('Test mode'));
      assert.ok(!html.includes('4242'));
    });

    it('When field errors are given, then each shows beside its field, linked by aria-describedby, and the input is marked invalid', () => {
      const html = renderPaymentPage(en, 
        paymentView({ fieldErrors: { card_number: 'Enter a valid card number.', cvc: 'Enter the 3-digit security code.' } }),
      );
      const card = inputTag(html, 'card_number');
      assert.equal(attribute(card, 'aria-invalid'), 'true');
      const cardIds = (attribute(card, 'aria-describedby') ?? '').split(' ');
      assert.ok(cardIds.some((id) => elementText(html, id) === 'Error: Enter a valid card number.'));
      const cvc = inputTag(html, 'cvc');
      const cvcIds = (attribute(cvc, 'aria-describedby') ?? '').split(' ');
      assert.ok(cvcIds.some((id) => elementText(html, id) === 'Error: Enter the 3-digit security code.'));
      assert.equal(attribute(inputTag(html, 'expiry'), 'aria-invalid'), undefined);
      assert.ok(!html.includes('role="alert"'), 'no notice was given');
      assert.match(html, /<title>Error: /);
    });

    it('When there are no field errors, then no input is marked invalid', () => {
      const html = renderPaymentPage(en, paymentView());
      assert.ok(!html.includes('aria-invalid'));
      assert.ok(!html.includes('field-error'));
    });

    it('When a notice and attempts left are given, then they show in a role="alert" element above the form', () => {
      const html = renderPaymentPage(en, paymentView({ notice: 'Your card was declined.', attemptsLeft: 2 }));
      const alert = html.match(/<div class="notice" role="alert">([\s\S]*?)<\/div>/)?.[1] ?? '';
      assert.ok(alert.includes('Your card was declined.'));
      assert.ok(alert.includes('You can try 2 more times.'));
      assert.ok(html.indexOf('role="alert"') < html.indexOf('<form'));
      assert.ok(renderPaymentPage(en, paymentView({ notice: 'Declined.', attemptsLeft: 1 })).includes('You can try 1 more time.'));
    });

    it('When values are given back, then expiry and name are refilled but the card number and security code never carry a value', () => {
      const values = { expiry: '04/29', cardholder_name: 'Amira Ben Salah', card_number: '4000056655665556', cvc: '737' };
      const html = renderPaymentPage(en, paymentView({ values, fieldErrors: { expiry: 'Enter a future date.' } }));
      assert.equal(attribute(inputTag(html, 'expiry'), 'value'), '04/29');
      assert.equal(attribute(inputTag(html, 'cardholder_name'), 'value'), 'Amira Ben Salah');
      assert.equal(attribute(inputTag(html, 'card_number'), 'value'), undefined);
      assert.equal(attribute(inputTag(html, 'cvc'), 'value'), undefined);
      assert.ok(!html.includes('4000056655665556'));
      assert.ok(!html.includes('737'));
    });
  });

  describe('status pages', () => {
    it('When a payment is processing, then the page says so, warns against paying again, and refreshes to the given URL', () => {
      const html = renderProcessingPage(en, order(), '/checkout/pay/tok123/status?x=1&y=2', 3);
      assert.match(html, /<h1>Payment processing<\/h1>/);
      assert.match(html, /confirming your payment/);
      assert.match(html, /do not pay again/);
      assert.deepEqual(refreshOf(html), { seconds: 3, url: '/checkout/pay/tok123/status?x=1&y=2' });
      assert.ok(html.includes('content="3;url=/checkout/pay/tok123/status?x=1&amp;y=2"'));
    });

    it('When a refresh time is not a whole number of seconds, then the page refuses to render', () => {
      assert.throws(() => renderProcessingPage(en, order(), '/x', -1), RangeError);
      assert.throws(() => renderProcessingPage(en, order(), '/x', 1.5), RangeError);
    });

    it('When the outcome pages render, then the headings are exactly "Payment successful" and "Payment failed", with the message and summary', () => {
      const success = renderOutcomePage(en, 'succeeded', 'Thank you for your order.', order());
      assert.deepEqual([...success.matchAll(/<h1[^>]*>([^<]*)<\/h1>/g)].map((m) => m[1]), ['Payment successful']);
      for (const text of ['Thank you for your order.', 'Librairie Al Kitab', 'TND\u00a012.500', 'ORD-1042']) assert.ok(success.includes(text), `missing ${text}`);
      const failure = renderOutcomePage(en, 'failed', 'Your card was declined & no attempts are left.');
      assert.deepEqual([...failure.matchAll(/<h1[^>]*>([^<]*)<\/h1>/g)].map((m) => m[1]), ['Payment failed']);
      assert.ok(failure.includes('Your card was declined &amp; no attempts are left.'));
      assert.ok(!failure.includes('<dl'), 'no summary without an order');
    });

    it('When a redirect page renders, then it refreshes at once to the URL and offers a Continue link to it', () => {
      const url = 'https://shop.example/return?ref=a&session_id=ps_123';
      const html = renderRedirectPage(en, url, 'Returning to the shop');
      assert.deepEqual(refreshOf(html), { seconds: 0, url });
      assert.equal(linkHref(html, 'Continue'), url);
      assert.match(html, /<h1>Returning to the shop<\/h1>/);
    });

    it('When a link has expired, been paid or been closed, then the heading is the same and one sentence tells which, with no identifier', () => {
      const sentences = {
        expired: /ask the merchant for a new payment link/,
        paid: /This order has already been paid\./,
        closed: /This payment is no longer open\./,
      } as const;
      for (const reason of ['expired', 'paid', 'closed'] as const) {
        const html = renderCheckoutLinkExpiredPage(en, reason);
        assert.match(html, /<h1>This payment link has expired<\/h1>/);
        assert.match(html, sentences[reason]);
        for (const [other, sentence] of Object.entries(sentences)) if (other !== reason) assert.doesNotMatch(html, sentence);
        assert.doesNotMatch(html, /ps_|ord_|tok/);
      }
    });

    it('When an error page renders, then it says "Page not found" for 404 and "Something went wrong" otherwise, without the status details', () => {
      assert.match(renderErrorPage(en, 404), /<h1>Page not found<\/h1>/);
      for (const status of [500, 502, 410]) {
        const html = renderErrorPage(en, status);
        assert.match(html, /<h1>Something went wrong<\/h1>/);
        assert.ok(!html.includes(String(status)));
      }
    });
  });

  describe('bank pages (D30)', () => {
    const acs = { url: 'https://acs.bank.example/challenge?lang=fr&x=1', fields: { creq: 'eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6IjEifQ', extra: 'a b&c' } };
    const method = { form: { url: 'https://acs.bank.example/method', fields: { threeDSMethodData: 'eyJ0aHJlZURTTWV0aG9kIjoiMSJ9' } }, continueUrl: '/checkout/tok123/3ds/pa_1/method', waitMs: 10_000 };

    function formTag(html: string, id: string): string {
      const tag = html.match(new RegExp(`<form [^>]*\\bid="${id}"[^>]*>`))?.[0];
      assert.ok(tag, `no form ${id}`);
      return tag;
    }

    function hiddenFieldsOf(html: string, formId: string): [string, string][] {
      const body = html.match(new RegExp(`<form [^>]*\\bid="${formId}"[^>]*>([\\s\\S]*?)</form>`))?.[1] ?? '';
      return [...body.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [unescapeHtml(m[1] ?? ''), unescapeHtml(m[2] ?? '')]);
    }

    it('When the ACS hand-off renders, then a POST form to the ACS URL carries each field as a hidden input, with a visible Continue, our script and no refresh', () => {
      const html = renderBankPage(en, acs);
      const form = formTag(html, 'bank-form');
      assert.equal(attribute(form, 'method'), 'post');
      assert.equal(attribute(form, 'action'), acs.url);
      assert.deepEqual(hiddenFieldsOf(html, 'bank-form'), Object.entries(acs.fields));
      assert.match(html, /<h1>Redirecting to your bank<\/h1>/);
      assert.match(html, /<p>Your bank asks you to confirm this payment\.<\/p>/);
      assert.match(html, /<form [^>]*id="bank-form"[\s\S]*<button type="submit" class="button">Continue<\/button>[\s\S]*<\/form>/);
      assert.deepEqual(html.match(/<script[^>]*><\/script>/g), [`<script src="${HAND_OFF_SCRIPT_PATH}" defer></script>`]);
      assert.equal(refreshOf(html), undefined, 'never a GET with the data in the query');
      assert.ok(!html.includes('?PaReq') && !html.includes('creq='), 'no field in a URL');
    });

    it('When a 3-D Secure 1 challenge renders, then PaReq, MD and TermUrl are posted as they are', () => {
      const fields = { PaReq: 'eJx+/=a b&c%', MD: 'pa_123', TermUrl: 'https://pay.example/checkout/t/3ds/pa_123' };
      const html = renderBankPage(en, { url: 'https://acs.example/pareq', fields });
      assert.deepEqual(hiddenFieldsOf(html, 'bank-form'), Object.entries(fields));
    });

    it('When field names, values and the URL hold markup or quotes, then they stay escaped inside their attributes', () => {
      const hostile = { url: 'https://acs.example/"><script>alert(1)</script>', fields: { '"><img src=x onerror=alert(1)>': `'"><script>alert(2)</script>` } };
      for (const html of [renderBankPage(en, hostile), renderMethodPage(en, { ...method, form: hostile })]) {
        // Outside the quoted attribute values, nothing of theirs: no tag, no handler.
        assert.doesNotMatch(html.replace(/"[^"]*"/g, '""'), /<script>|<img|\sonerror=/);
        assert.equal(html.match(/<script/g)?.length, 1, 'our script alone');
        assert.ok(html.includes(escapeHtml(hostile.url)));
      }
      assert.deepEqual(hiddenFieldsOf(renderBankPage(en, hostile), 'bank-form'), Object.entries(hostile.fields));
    });

    it('When the 3DS Method page renders, then a hidden frame, the method form posted into it, and the page\'s own form (completed false, the language, the wait) with a visible Continue', () => {
      const html = renderMethodPage(en, method);
      assert.match(html, /<h1>Checking your card<\/h1>/);
      assert.match(html, /<p>We are checking your card with your bank\. This takes a few seconds\.<\/p>/);
      assert.match(html, /<iframe id="method-frame" name="method-frame" title="Checking your card" hidden><\/iframe>/);
      const methodForm = formTag(html, 'method-form');
      assert.deepEqual([attribute(methodForm, 'method'), attribute(methodForm, 'action'), attribute(methodForm, 'target')], ['post', method.form.url, 'method-frame']);
      assert.deepEqual(hiddenFieldsOf(html, 'method-form'), Object.entries(method.form.fields));
      const next = formTag(html, 'method-continue');
      assert.deepEqual([attribute(next, 'method'), attribute(next, 'action'), attribute(next, 'data-wait-ms')], ['post', method.continueUrl, '10000']);
      assert.deepEqual(hiddenFieldsOf(html, 'method-continue'), [['completed', 'false'], ['language', 'en']]);
      assert.match(html, /<form [^>]*id="method-continue"[\s\S]*<button type="submit" class="button">Continue<\/button>[\s\S]*<\/form>/);
      assert.deepEqual(html.match(/<script[^>]*><\/script>/g), [`<script src="${HAND_OFF_SCRIPT_PATH}" defer></script>`]);
    });

    it('When the acquirer\'s form was refused, then the page says the bank could not be reached and nothing was charged, with no form and no script', () => {
      const html = renderBankRefusedPage(en);
      assert.match(html, /<h1>Your bank could not be reached<\/h1>/);
      assert.match(html, /your card has not been charged/);
      assert.doesNotMatch(html, /<form|<script/);
    });
  });

  describe('every page', () => {
    const returnUrl = 'https://shop.example/return?session_id=ps_1';
    const acs = { url: 'https://acs.example/c', fields: { creq: 'c' } };
    const methodUrl = 'https://acs.example/m';
    const continueUrl = '/checkout/pay/tok123/3ds/pa_1/method';
    const flouciAction = '/checkout/pay/tok123/wallet/flouci';
    const flouciPage = 'https://flouci.example/pay/abc';
    const passedIn = new Set([STYLESHEET, '/checkout/pay/tok123', '/checkout/pay/tok123/cancel', '/checkout/pay/tok123/status', returnUrl, acs.url, methodUrl, continueUrl, flouciAction, flouciPage]);
    /** The pages that hand the buyer to the bank, the only ones that run a script (ours). */
    const scripted = new Set(['bank', 'method']);
    const pages: Record<string, string> = {
      'payment (live)': renderPaymentPage(en, paymentView({ notice: 'Declined.', attemptsLeft: 1, fieldErrors: { cvc: 'Bad.' } })),
      'payment (test)': renderPaymentPage(en, paymentView({ order: order({ livemode: false, original: { amount: '3.75', currency: 'EUR' } }) })),
      'payment (Flouci)': renderPaymentPage(en, paymentView({ flouciActionUrl: flouciAction, notice: 'Declined.', attemptsLeft: 1 })),
      processing: renderProcessingPage(en, order({ livemode: false }), '/checkout/pay/tok123/status', 2),
      succeeded: renderOutcomePage(en, 'succeeded', 'Paid.', order()),
      failed: renderOutcomePage(en, 'failed', 'Not paid.'),
      redirect: renderRedirectPage(en, returnUrl, 'Returning to the shop'),
      bank: renderBankPage(en, acs),
      method: renderMethodPage(en, { form: { url: methodUrl, fields: { threeDSMethodData: 'd' } }, continueUrl, waitMs: 10_000 }),
      'bank refused': renderBankRefusedPage(en),
      wallet: renderWalletPage(en, flouciPage),
      'wallet refused': renderWalletRefusedPage(en),
      'link expired': renderCheckoutLinkExpiredPage(en, 'expired'),
      'not found': renderErrorPage(en, 404),
      error: renderErrorPage(en, 500),
    };

    for (const [name, html] of Object.entries(pages)) {
      it(`When the ${name} page renders, then it is a complete English document loading only our stylesheet`, () => {
        assert.ok(html.startsWith('<!doctype html>\n<html lang="en" dir="ltr">'));
        assert.ok(html.includes('<meta charset="utf-8">'));
        assert.ok(html.includes('<meta name="viewport" content="width=device-width, initial-scale=1">'));
        assert.match(html, /<title>[^<]+<\/title>/);
        assert.deepEqual(html.match(/<link[^>]*>/g), [`<link rel="stylesheet" href="${STYLESHEET}">`]);
      });

      it(`When the ${name} page renders, then it has ${scripted.has(name) ? 'our script alone' : 'no script'}, no inline style and no URL other than those passed in`, () => {
        const scripts = scripted.has(name) ? [`<script src="${HAND_OFF_SCRIPT_PATH}" defer></script>`] : null;
        assert.deepEqual(html.match(/<script[^>]*>[^<]*<\/script>/gi), scripts, 'no script but our file, and no inline one');
        assert.equal(html.match(/<script/gi)?.length, scripts?.length);
        assert.doesNotMatch(html, /\sstyle=/i);
        assert.doesNotMatch(html, /<style/i);
        assert.doesNotMatch(html, /\son[a-z]+=/i);
        for (const url of urlsIn(html).filter((url) => url !== HAND_OFF_SCRIPT_PATH)) assert.ok(passedIn.has(url), `unexpected URL ${url}`);
        assert.deepEqual(html.match(/\ssrc="[^"]*"/gi), scripted.has(name) ? [` src="${HAND_OFF_SCRIPT_PATH}"`] : null);
        const absolute = [...unescapeHtml(html).matchAll(/(?:https?:)?\/\/[^\s"'<>]+/g)].map((m) => m[0]);
        for (const url of absolute) {
          assert.ok([...passedIn].some((allowed) => allowed.includes(url)), `unexpected absolute URL ${url}`);
        }
      });
    }
  });

  describe('stylesheet', () => {
    it('When the stylesheet is read, then it loads nothing from elsewhere and stays short', () => {
      assert.doesNotMatch(CHECKOUT_CSS, /@import|url\(|https?:/);
      assert.ok(CHECKOUT_CSS.split('\n').length <= 150);
      assert.match(CHECKOUT_CSS, /max-width: 28rem/);
      assert.match(CHECKOUT_CSS, /:focus-visible/);
    });
  });
});
