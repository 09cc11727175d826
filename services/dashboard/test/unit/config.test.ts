import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { ConfigError } from '@gateway/config';
import { generateOperatorKey } from '@gateway/messaging';
import { loadDashboardConfig } from '../../src/config.js';

describe('dashboard settings', () => {
  it("when OPERATOR_PUBLIC_KEYS lists the dashboard's own key without marking it as the dashboard's, then the start is refused; marked, it starts", async () => {
    const [operator, dashboard] = await Promise.all([generateOperatorKey(), generateOperatorKey()]);
    const env = (dashboardPublic: object) => ({
      DATABASE_URL: 'postgres://svc_dashboard@127.0.0.1:5432/gateway',
      SECRETS_KEK: Buffer.alloc(32, 7).toString('base64'),
      DASHBOARD_SIGNING_KEY: JSON.stringify(dashboard.privateJwk),
      CARD_ENCRYPTION_KEY: '{}',
      OPERATOR_PUBLIC_KEYS: JSON.stringify({ keys: [operator.publicJwk, dashboardPublic] }),
    });
    assert.throws(() => loadDashboardConfig(env(dashboard.publicJwk)), (err: unknown) => err instanceof ConfigError && /"door": "dashboard"/.test(err.message));
    const config = loadDashboardConfig(env({ ...dashboard.publicJwk, door: 'dashboard' }));
    assert.deepEqual(config.operatorPublicKeys.map((key) => key.door), [undefined, 'dashboard']);
  });

  it('when the export settings are given, then the dashboard reads them as the API gateway does (D29: one limit for both doors); absent, the same defaults', async () => {
    const dashboard = await generateOperatorKey();
    const env = {
      DATABASE_URL: 'postgres://svc_dashboard@127.0.0.1:5432/gateway',
      SECRETS_KEK: Buffer.alloc(32, 7).toString('base64'),
      DASHBOARD_SIGNING_KEY: JSON.stringify(dashboard.privateJwk),
      CARD_ENCRYPTION_KEY: '{}',
      OPERATOR_PUBLIC_KEYS: JSON.stringify({ keys: [{ ...dashboard.publicJwk, door: 'dashboard' }] }),
    };
    const settings = (config: ReturnType<typeof loadDashboardConfig>) => [config.exportsPerMerchant, config.exportMaxSeconds, config.exportIdleTimeoutMs, config.exportSlotLeaseSeconds, config.rateLimitKeyPrefix, config.rateLimitFallbackReplicas];
    assert.deepEqual(settings(loadDashboardConfig(env)), [3, 600, 60_000, 30, 'rl', 1]);
    const given = { EXPORTS_PER_MERCHANT: '1', EXPORT_MAX_SECONDS: '2', EXPORT_IDLE_TIMEOUT_MS: '5000', EXPORT_SLOT_LEASE_SECONDS: '4', RATE_LIMIT_KEY_PREFIX: 'gw7', RATE_LIMIT_FALLBACK_REPLICAS: '6' };
    assert.deepEqual(settings(loadDashboardConfig({ ...env, ...given })), [1, 2, 5000, 4, 'gw7', 6]);
    assert.throws(() => loadDashboardConfig({ ...env, EXPORTS_PER_MERCHANT: '0' }), (err: unknown) => err instanceof ConfigError && /EXPORTS_PER_MERCHANT/.test(err.message));
  });
});
