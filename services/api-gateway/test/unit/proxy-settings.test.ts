import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { ConfigError } from '@gateway/config';
import { generateOperatorKey } from '@gateway/messaging';
import { loadGatewayConfig } from '../../src/config.js';

describe('gateway settings: the proxies trusted in front (D12, D29)', () => {
  let required: Record<string, string>;
  before(async () => {
    const operator = await generateOperatorKey();
    required = {
      DATABASE_URL: 'postgres://svc_api_gateway@127.0.0.1:5432/gateway',
      SECRETS_KEK: Buffer.alloc(32, 7).toString('base64'),
      OPERATOR_PUBLIC_KEYS: JSON.stringify({ keys: [operator.publicJwk] }),
    };
  });
  const hops = (env: Record<string, string>) => loadGatewayConfig({ ...required, ...env }).trustProxyHops;

  it('when nothing is set, then no proxy is trusted: the gateway is the edge', () => {
    assert.equal(hops({}), 0);
  });

  it('when TRUST_PROXY_HOPS is set, then that many are trusted', () => {
    assert.equal(hops({ TRUST_PROXY_HOPS: '1' }), 1);
    assert.equal(hops({ TRUST_PROXY_HOPS: '2' }), 2);
  });

  it('when a deployment still sets the older TRUST_PROXY, then it works as it did: true trusts one proxy or TRUST_PROXY_HOPS of them, false none whatever TRUST_PROXY_HOPS says', () => {
    assert.equal(hops({ TRUST_PROXY: 'true' }), 1);
    assert.equal(hops({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '2' }), 2);
    assert.equal(hops({ TRUST_PROXY: 'false' }), 0);
    assert.equal(hops({ TRUST_PROXY: 'false', TRUST_PROXY_HOPS: '2' }), 0);
  });

  it('when TRUST_PROXY=true comes with TRUST_PROXY_HOPS=0, then the start is refused with what to set', () => {
    assert.throws(() => hops({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '0' }), (err: unknown) => err instanceof ConfigError && /give TRUST_PROXY_HOPS alone/.test(err.message));
  });
});
