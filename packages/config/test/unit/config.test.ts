import assert from 'node:assert/strict';
import { bool, ConfigError, hostPorts, int, intList, loadConfig, publicJwks, redisSettings, secretsKeys, str, sweepInterval, url, urlList } from '@gateway/config';

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

describe('public JWKs (OPERATOR_PUBLIC_KEYS)', () => {
  const spec = { keys: publicJwks('KEYS') };
  // RFC 8037's example Ed25519 key pair.
  const key = { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo', kid: 'op-1' };
  const privateHalf = 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A';

  it('when a JWKS, an array of JWKs or one JWK is given, then every key is read, named by its kid', () => {
    const other = { ...key, kid: 'op-2' };
    assert.deepEqual(loadConfig(spec, { KEYS: JSON.stringify({ keys: [key, other] }) }).keys, [key, other]);
    assert.deepEqual(loadConfig(spec, { KEYS: JSON.stringify([key]) }).keys, [key]);
    assert.deepEqual(loadConfig(spec, { KEYS: JSON.stringify({ ...key, use: 'sig' }) }).keys, [key]);
  });

  it("when a key is marked as a door's, then the mark is kept: services hold that key to what the door does", () => {
    const dashboard = { ...key, kid: 'dash-1', door: 'dashboard' };
    assert.deepEqual(loadConfig(spec, { KEYS: JSON.stringify({ keys: [key, dashboard] }) }).keys, [key, dashboard]);
    assert.throws(() => loadConfig(spec, { KEYS: JSON.stringify({ ...dashboard, door: true }) }), /door must name the door/);
  });

  it('when none is given, or a key is private, unnamed or not Ed25519, then loading fails, never echoing the value', () => {
    assert.throws(() => loadConfig(spec, {}), /KEYS is required/);
    for (const [raw, problem] of [
      ['{"keys":[]}', /at least one key/],
      [JSON.stringify({ ...key, d: privateHalf }), /private key/],
      [JSON.stringify({ ...key, kid: undefined }), /no kid/],
      [JSON.stringify({ ...key, crv: 'P-256' }), /not an Ed25519 public JWK/],
      ['not json', /must be JSON/],
    ] as const) {
      assert.throws(
        () => loadConfig(spec, { KEYS: raw }),
        (err: unknown) => err instanceof ConfigError && problem.test(err.message) && !err.message.includes(privateHalf),
        raw,
      );
    }
  });
});

describe('clustered engines (D23)', () => {
  const spec = { amqpUrl: urlList('AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672', ['amqp:', 'amqps:'], { secret: true }), ...redisSettings };

  it('when AMQP_URL lists several nodes, then each is kept, in order; one URL is a list of one', () => {
    assert.equal(loadConfig(spec, { AMQP_URL: 'amqps://gw.session:p@r0:5671/, amqps://gw.session:p@r1:5671' }).amqpUrl, 'amqps://gw.session:p@r0:5671,amqps://gw.session:p@r1:5671');
    assert.equal(loadConfig(spec, {}).amqpUrl, 'amqp://guest:guest@127.0.0.1:5672');
  });

  it('when a node is not an AMQP URL, or the nodes name different users, then it is refused without echoing the secret', () => {
    for (const raw of ['amqp://gw.session:hunter2@r0,http://r1', 'amqp://gw.session:hunter2@r0,amqp://gw.refund:hunter2@r1', 'amqp://gw.session:hunter2@r0,,']) {
      assert.throws(
        () => loadConfig(spec, { AMQP_URL: raw }),
        (err: unknown) => err instanceof ConfigError && /AMQP_URL/.test(err.message) && !err.message.includes('hunter2'),
        raw,
      );
    }
  });

  it('when REDIS_SENTINELS is given, then it is a list of host and port; absent, an empty list (no Sentinel)', () => {
    const config = loadConfig(spec, { REDIS_SENTINELS: 'redis-0.redis:26379, 10.0.0.2:26380,[fd00::1]:26379' });
    assert.deepEqual(config.redisSentinels, [
      { host: 'redis-0.redis', port: 26379 },
      { host: '10.0.0.2', port: 26380 },
      { host: 'fd00::1', port: 26379 },
    ]);
    assert.equal(config.redisSentinelName, 'gateway');
    assert.deepEqual(loadConfig(spec, {}).redisSentinels, []);
    for (const raw of ['redis-0', 'redis-0:0', 'redis-0:70000', 'a:1,', 'a b:1']) {
      assert.throws(() => loadConfig({ sentinels: hostPorts('REDIS_SENTINELS') }, { REDIS_SENTINELS: raw }), /REDIS_SENTINELS: must be a comma-separated list of host:port/, raw);
    }
  });
});
