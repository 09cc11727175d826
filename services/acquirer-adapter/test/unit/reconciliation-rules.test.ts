import assert from 'node:assert/strict';
import { ConfigError } from '@gateway/config';
import { loadAdapterConfig } from '../../src/config.js';
import { nextCheckDelay, type ReconcilePolicy } from '../../src/domain/reconciliation.js';

const REQUIRED = {
  DATABASE_URL: 'postgres://adapter@127.0.0.1/gateway',
  CARD_DECRYPTION_KEY: '{}',
  SECRETS_KEK: Buffer.alloc(32).toString('base64'),
  // RFC 8037's example Ed25519 public key.
  OPERATOR_PUBLIC_KEYS: '{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","kid":"op"}',
};

describe('Reconciliation settings', () => {
  it('when nothing is set, then the sweep runs every 30 s, reconciles after 60 s, gives up on 3-D Secure after 30 min and backs off to 1 h at most', () => {
    const config = loadAdapterConfig(REQUIRED);
    assert.equal(config.sweepIntervalSeconds, 30);
    assert.equal(config.reconcileAfterSeconds, 60);
    assert.equal(config.challengeTimeoutSeconds, 1_800);
    assert.equal(config.reconcileMaxDelaySeconds, 3_600);
  });

  it('when RECONCILE_AFTER_SECONDS is not longer than three acquirer calls, then loading fails with a ConfigError', () => {
    assert.throws(() => loadAdapterConfig({ ...REQUIRED, ACQUIRER_TIMEOUT_MS: '20000', RECONCILE_AFTER_SECONDS: '60' }), (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /RECONCILE_AFTER_SECONDS/);
      return true;
    });
    assert.equal(loadAdapterConfig({ ...REQUIRED, ACQUIRER_TIMEOUT_MS: '1000', RECONCILE_AFTER_SECONDS: '4' }).reconcileAfterSeconds, 4);
  });

  it('when SWEEP_INTERVAL_SECONDS is not a period cron can keep, then loading fails', () => {
    for (const bad of ['0', '90', '7200', 'soon']) {
      assert.throws(() => loadAdapterConfig({ ...REQUIRED, SWEEP_INTERVAL_SECONDS: bad }), ConfigError, bad);
    }
    assert.equal(loadAdapterConfig({ ...REQUIRED, SWEEP_INTERVAL_SECONDS: '120' }).sweepIntervalSeconds, 120);
  });
});

describe('Reconciliation backoff', () => {
  const policy: ReconcilePolicy = { reconcileAfterSeconds: 60, challengeTimeoutSeconds: 1_800, baseDelaySeconds: 30, maxDelaySeconds: 3_600, leaseSeconds: 35 };

  it('when an order stays unresolved, then its checks are base × 2^(checks − 1) apart, up to the maximum', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 40].map((checks) => nextCheckDelay(policy, { status: 'UNKNOWN', checks, age_seconds: 10_000 }));
    assert.deepEqual(delays, [30, 60, 120, 240, 480, 960, 1_920, 3_600, 3_600]);
  });

  it('when the order could be given up on sooner than the backoff, then it is looked at again just then', () => {
    assert.equal(nextCheckDelay(policy, { status: 'CHALLENGED', checks: 6, age_seconds: 1_000 }), 800);
    assert.equal(nextCheckDelay(policy, { status: 'UNKNOWN', checks: 1, age_seconds: 50 }), 10);
    assert.equal(nextCheckDelay(policy, { status: 'UNKNOWN', checks: 1, age_seconds: 59.9 }), 1);
    // An UNKNOWN order still open is given up on at the challenge timeout as well.
    assert.equal(nextCheckDelay(policy, { status: 'UNKNOWN', checks: 6, age_seconds: 1_000 }), 800);
  });
});
