import assert from 'node:assert/strict';
import { bool, ConfigError, int, intList, loadConfig, secretsKeys, str, sweepInterval, url } from '@gateway/config';

describe('configuration', () => {
  const spec = {
    port: int('PORT', 8080, { min: 0, max: 65535 }),
    db: url('DATABASE_URL', undefined, ['postgres:'], { secret: true }),
    delays: intList('DELAYS', [60, 7200]),
    flag: bool('FLAG', false),
    name: str('NAME', 'x'),
  };

  it('when values are absent, then defaults apply, and a required one without default is reported', () => {
    assert.throws(() => loadConfig(spec, {}), (err: unknown) => err instanceof ConfigError && err.problems.length === 1 && /DATABASE_URL is required/.test(err.message));
    const config = loadConfig(spec, { DATABASE_URL: 'postgres://u@h/db' });
    assert.deepEqual({ ...config }, { port: 8080, db: 'postgres://u@h/db', delays: [60, 7200], flag: false, name: 'x' });
  });

  it('when several values are bad, then all are reported at once, and a secret value is never echoed', () => {
    assert.throws(
      () => loadConfig(spec, { PORT: '99999', DATABASE_URL: 'mysql://root:hunter2@h/db', DELAYS: '1,x', FLAG: 'maybe' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.equal(err.problems.length, 4);
        assert.equal(err.message.includes('hunter2'), false);
        assert.ok(err.message.includes('"99999"'));
        return true;
      },
    );
  });

  it('when a sweep interval is given, then it is one cron can say (seconds under a minute, or whole minutes), and anything else is refused', () => {
    const sweep = { every: sweepInterval('SWEEP_INTERVAL_SECONDS', 30) };
    for (const raw of ['1', '59', '60', '120', '3600']) assert.equal(loadConfig(sweep, { SWEEP_INTERVAL_SECONDS: raw }).every, Number(raw));
    assert.equal(loadConfig(sweep, {}).every, 30);
    for (const bad of ['0', '61', '90', '7200', '1.5', 'often']) {
      assert.throws(() => loadConfig(sweep, { SWEEP_INTERVAL_SECONDS: bad }), ConfigError, bad);
    }
  });

  it('when SECRETS_KEK is missing or not 32 bytes of base64, then the start is refused with a clear message that never echoes the value', () => {
    assert.throws(() => loadConfig(secretsKeys, {}), /SECRETS_KEK is required/);
    const short = Buffer.alloc(16, 7).toString('base64');
    assert.throws(
      () => loadConfig(secretsKeys, { SECRETS_KEK: short, SECRETS_KEK_PREVIOUS: 'not base64!' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.deepEqual(err.problems, [
          'SECRETS_KEK: must be 32 random bytes in base64 (openssl rand -base64 32)',
          'SECRETS_KEK_PREVIOUS: must be 32 random bytes in base64 (openssl rand -base64 32)',
        ]);
        assert.equal(err.message.includes(short), false);
        return true;
      },
    );
    const kek = Buffer.alloc(32, 9);
    const config = loadConfig(secretsKeys, { SECRETS_KEK: kek.toString('base64') });
    assert.deepEqual([config.secretsKek, config.secretsKekPrevious], [kek, undefined]);
  });
});
