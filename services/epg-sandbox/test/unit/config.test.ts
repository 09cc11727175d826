import assert from 'node:assert/strict';
import { ConfigError } from '@gateway/config';
import { loadSandboxConfig } from '../../src/config.js';
import { challengePage, returnPage } from '../../src/views/acs.page.js';
import { payPage } from '../../src/views/flouci.page.js';
import { authenticate } from '../../src/domain/terminals.js';
import { EpgError } from '../../src/domain/epg-error.js';

describe('sandbox configuration', () => {
  it('When nothing is set, then the defaults apply and the HMAC key is 32 random bytes', () => {
    const config = loadSandboxConfig({});
    assert.equal(config.port, 8086);
    assert.deepEqual([...config.terminals], [['gateway-test', 'gateway-test-password']]);
    assert.deepEqual([...config.flouciApps], [['gateway-flouci-test-public', 'gateway-flouci-test-private']]);
    assert.equal(config.publicUrl, 'http://localhost:8086');
    assert.equal(config.slowDelayMs, 30_000);
    assert.equal(config.orderRetention, 200_000);
    assert.equal(config.secret.length, 32);
    assert.notDeepEqual(loadSandboxConfig({}).secret, config.secret);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.withoutFinish3dsVer2, false);
  });

  it('When SANDBOX_WITHOUT_FINISH_3DS_VER2 is true, then the sandbox plays a deployment without finish3dsVer2Payment.do', () => {
    assert.equal(loadSandboxConfig({ SANDBOX_WITHOUT_FINISH_3DS_VER2: 'true' }).withoutFinish3dsVer2, true);
  });

  it('When terminals are listed, then each userName maps to its password, which may hold a colon', () => {
    const config = loadSandboxConfig({ SANDBOX_TERMINALS: 'a:pa, b:p:b' });
    assert.deepEqual([...config.terminals], [['a', 'pa'], ['b', 'p:b']]);
  });

  it('When Flouci applications are listed, then each PUBLIC_KEY maps to its PRIVATE_KEY, which may hold a colon; a key named twice or without its pair is refused unechoed', () => {
    const config = loadSandboxConfig({ SANDBOX_FLOUCI_APPS: 'pub-a:priv-a, pub-b:priv:b' });
    assert.deepEqual([...config.flouciApps], [['pub-a', 'priv-a'], ['pub-b', 'priv:b']]);
    for (const bad of ['pub-a', 'pub-a:', ':priv-a', 'pub-a:x,pub-a:y']) {
      assert.throws(
        () => loadSandboxConfig({ SANDBOX_FLOUCI_APPS: bad }),
        (err: unknown) => err instanceof ConfigError && err.problems.length === 1 && err.message.startsWith('invalid configuration:\n  SANDBOX_FLOUCI_APPS: ') && !err.message.includes(bad),
        bad,
      );
    }
  });

  it('When a setting is bad, then loading fails without echoing the secret values', () => {
    try {
      loadSandboxConfig({ SANDBOX_TERMINALS: 'no-password-here', SANDBOX_SECRET: 'short', SANDBOX_PUBLIC_URL: 'ftp://x' });
      assert.fail('expected a ConfigError');
    } catch (err) {
      assert.ok(err instanceof ConfigError);
      assert.equal(err.problems.length, 3);
      assert.ok(!err.message.includes('no-password-here'));
      assert.ok(!err.message.includes('short"'));
    }
  });
});

describe('terminal credentials', () => {
  const terminals = new Map([['shop', 'secret-password']]);
  const code = (userName?: string, password?: string) => {
    try {
      return authenticate(terminals, userName, password);
    } catch (err) {
      assert.ok(err instanceof EpgError);
      return `${err.errorCode} ${err.message}`;
    }
  };

  it('When the credentials match, then the terminal is named; missing, then "4"; wrong, then "5" Access denied', () => {
    assert.equal(code('shop', 'secret-password'), 'shop');
    assert.match(String(code(undefined, 'secret-password')), /^4 /);
    assert.match(String(code('shop', undefined)), /^4 /);
    assert.equal(code('shop', 'secret-passwore'), '5 Access denied');
    assert.equal(code('other', 'secret-password'), '5 Access denied');
  });
});

describe('The 3-D Secure page', () => {
  it('When the challenge holds markup or quotes, then the page shows them as text and no attribute is broken out of', () => {
    const evil = `"><script>alert('x')</script>&`;
    const page = challengePage({ orderId: 'o', protocol: '3-D Secure 1', amountTnd: '1.000', maskedPan: '4000**3220', language: evil, decision: evil });
    const escaped = '&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;';
    assert.ok(!page.includes('<script>'));
    assert.ok(page.includes(`<dd class="language">${escaped}</dd>`));
    assert.ok(page.includes('<form method="post" action="/acs/answer">'));
    assert.ok(page.includes(`<input type="hidden" name="decision" value="${escaped}">`));
  });

  it('When the buyer is handed back, then the form posts every field escaped to the merchant, with a visible Continue and only the page\'s own script', () => {
    const evil = `"><script>alert('x')</script>&`;
    const page = returnPage({ url: `https://shop.example/3ds?a=1&b=${evil}`, fields: { PaRes: 'token', MD: evil } });
    const escaped = '&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;';
    assert.ok(!page.includes("<script>alert"));
    assert.ok(page.includes(`<form method="post" action="https://shop.example/3ds?a=1&amp;b=${escaped}">`));
    assert.ok(page.includes('<input type="hidden" name="PaRes" value="token">'));
    assert.ok(page.includes(`<input type="hidden" name="MD" value="${escaped}">`));
    assert.ok(page.includes('<button type="submit" id="continue">Continue</button>'));
    assert.deepEqual(page.match(/<script[^>]*>/g), ['<script src="/acs/continue.js">']);
  });
});

describe('The Flouci payment page', () => {
  it('When the page or its error holds markup or quotes, then they show as text and the form posts to the payment\'s own page', () => {
    const evil = `"><script>alert('x')</script>&`;
    const escaped = '&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;';
    const page = payPage({ paymentId: evil, amountTnd: '1.000' }, evil);
    assert.ok(!page.includes('<script>'));
    assert.ok(page.includes(`<form method="post" action="/flouci/pay/${escaped}">`));
    assert.ok(page.includes(`<p class="error" id="phone-error" role="alert">${escaped}</p>`));
    assert.ok(page.includes('aria-describedby="phone-error"'));
    assert.ok(!payPage({ paymentId: 'p', amountTnd: '1.000' }).includes('role="alert"'));
  });
});
