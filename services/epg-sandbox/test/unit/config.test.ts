import assert from 'node:assert/strict';
import { ConfigError } from '@gateway/config';
import { loadSandboxConfig } from '../../src/config.js';
import { escapeHtml } from '../../src/http/acs.page.js';
import { authenticate } from '../../src/domain/terminals.js';
import { EpgError } from '../../src/domain/epg-error.js';

describe('sandbox configuration', () => {
  it('When nothing is set, then the defaults apply and the HMAC key is 32 random bytes', () => {
    const config = loadSandboxConfig({});
    assert.equal(config.port, 8086);
    assert.deepEqual([...config.terminals], [['gateway-test', 'gateway-test-password']]);
    assert.equal(config.publicUrl, 'http://localhost:8086');
    assert.equal(config.slowDelayMs, 30_000);
    assert.equal(config.orderRetention, 200_000);
    assert.equal(config.secret.length, 32);
    assert.notDeepEqual(loadSandboxConfig({}).secret, config.secret);
    assert.equal(config.logLevel, 'info');
  });

  it('When terminals are listed, then each userName maps to its password, which may hold a colon', () => {
    const config = loadSandboxConfig({ SANDBOX_TERMINALS: 'a:pa, b:p:b' });
    assert.deepEqual([...config.terminals], [['a', 'pa'], ['b', 'p:b']]);
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

describe('HTML escaping', () => {
  it('When text holds markup or quotes, then every special character is an entity', () => {
    assert.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
  });
});
