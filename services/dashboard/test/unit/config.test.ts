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
      OPERATOR_PUBLIC_KEYS: JSON.stringify({ keys: [operator.publicJwk, dashboardPublic] }),
    });
    assert.throws(() => loadDashboardConfig(env(dashboard.publicJwk)), (err: unknown) => err instanceof ConfigError && /"door": "dashboard"/.test(err.message));
    const config = loadDashboardConfig(env({ ...dashboard.publicJwk, door: 'dashboard' }));
    assert.deepEqual(config.operatorPublicKeys.map((key) => key.door), [undefined, 'dashboard']);
  });
});
