/**
 * Typed configuration read from the environment and validated before a service
 * starts: every setting has a name, an environment variable and an optional
 * default; every bad or missing value is reported at once.
 */

import { isIP } from 'node:net';

export interface Setting<T> {
  readonly env: string;
  readonly parse: (raw: string) => T;
  readonly fallback?: () => T;
  /** Secrets are never echoed in error messages. */
  readonly secret?: boolean;
}

type Spec = Record<string, Setting<unknown>>;
export type ConfigOf<S extends Spec> = { readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Reads every setting of `spec` from `source`; throws one ConfigError naming all bad values. */
export function loadConfig<S extends Spec>(spec: S, source: Record<string, string | undefined> = process.env): ConfigOf<S> {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, setting] of Object.entries(spec)) {
    const raw = source[setting.env];
    if (raw === undefined || raw === '') {
      if (setting.fallback) out[key] = setting.fallback();
      else problems.push(`${setting.env} is required`);
      continue;
    }
    try {
      out[key] = setting.parse(raw);
    } catch (err) {
      const shown = setting.secret ? '' : ` (got ${JSON.stringify(raw)})`;
      problems.push(`${setting.env}: ${(err as Error).message}${shown}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(out) as ConfigOf<S>;
}

function withDefault<T>(setting: Omit<Setting<T>, 'fallback'>, fallback: T | undefined): Setting<T> {
  return fallback === undefined ? setting : { ...setting, fallback: () => fallback };
}

/** A free-form string. */
export function str(env: string, fallback?: string, opts: { secret?: boolean } = {}): Setting<string> {
  return withDefault({ env, parse: (raw) => raw, secret: opts.secret ?? false }, fallback);
}

/** An integer within [min, max]. */
export function int(env: string, fallback?: number, range: { min?: number; max?: number } = {}): Setting<number> {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = range;
  return withDefault(
    {
      env,
      parse: (raw) => {
        if (!/^-?\d+$/.test(raw)) throw new Error('must be an integer');
        const value = Number(raw);
        if (value < min || value > max) throw new Error(`must be between ${min} and ${max}`);
        return value;
      },
    },
    fallback,
  );
}

/** `true`/`false` (also 1/0, yes/no). */
export function bool(env: string, fallback?: boolean): Setting<boolean> {
  return withDefault(
    {
      env,
      parse: (raw) => {
        const v = raw.trim().toLowerCase();
        if (['true', '1', 'yes'].includes(v)) return true;
        if (['false', '0', 'no'].includes(v)) return false;
        throw new Error('must be true or false');
      },
    },
    fallback,
  );
}

/** An absolute URL whose scheme is one of `protocols`. */
export function url(env: string, fallback?: string, protocols: readonly string[] = ['http:', 'https:'], opts: { secret?: boolean } = {}): Setting<string> {
  return withDefault(
    {
      env,
      secret: opts.secret ?? false,
      parse: (raw) => {
        let parsed: URL;
        try {
          parsed = new URL(raw);
        } catch {
          throw new Error('must be an absolute URL');
        }
        if (!protocols.includes(parsed.protocol)) throw new Error(`must use ${protocols.join(' or ')}`);
        return raw.replace(/\/+$/, '');
      },
    },
    fallback,
  );
}

/**
 * One absolute URL or several, comma-separated (the nodes of one cluster, D23),
 * each with a scheme of `protocols` and all with the same user: one identity
 * reaches the cluster through whichever node answers. Kept as the list's text.
 */
export function urlList(env: string, fallback?: string, protocols: readonly string[] = ['http:', 'https:'], opts: { secret?: boolean } = {}): Setting<string> {
  const one = url(env, undefined, protocols, opts);
  return withDefault(
    {
      env,
      secret: opts.secret ?? false,
      parse: (raw) => {
        const urls = raw.split(',').map((part) => one.parse(part.trim()));
        if (new Set(urls.map((u) => new URL(u).username)).size > 1) throw new Error('must name the same user in every URL');
        return urls.join(',');
      },
    },
    fallback,
  );
}

export interface HostPort {
  readonly host: string;
  readonly port: number;
}

/** `host:port` pairs, comma-separated, such as Redis Sentinels (D23). */
export function hostPorts(env: string, fallback?: readonly HostPort[]): Setting<readonly HostPort[]> {
  return withDefault<readonly HostPort[]>(
    {
      env,
      parse: (raw) =>
        raw.split(',').map((part) => {
          const match = /^\s*([A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\]):(\d{1,5})\s*$/.exec(part);
          const port = Number(match?.[2]);
          if (!match?.[1] || !(port >= 1 && port <= 65_535)) throw new Error('must be a comma-separated list of host:port');
          return { host: match[1].replace(/^\[|\]$/g, ''), port };
        }),
    },
    fallback,
  );
}

/** A comma-separated list of non-negative integers, such as retry delays. */
export function intList(env: string, fallback?: readonly number[]): Setting<readonly number[]> {
  return withDefault<readonly number[]>(
    {
      env,
      parse: (raw) =>
        raw.split(',').map((part) => {
          const p = part.trim();
          if (!/^\d+$/.test(p)) throw new Error('must be a comma-separated list of non-negative integers');
          return Number(p);
        }),
    },
    fallback,
  );
}

/**
 * How often a periodic job runs, in seconds, as cron can say it: 1-59
 * seconds, or whole minutes up to an hour.
 */
export function sweepInterval(env: string, fallback?: number): Setting<number> {
  return withDefault(
    {
      env,
      parse: (raw) => {
        const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
        if (!((n >= 1 && n < 60) || (n >= 60 && n <= 3600 && n % 60 === 0))) throw new Error('must be 1-59 seconds, or whole minutes up to 3600');
        return n;
      },
    },
    fallback,
  );
}

/** One of a fixed set of values. */
function oneOf<T extends string>(env: string, values: readonly T[], fallback?: T): Setting<T> {
  return withDefault(
    {
      env,
      parse: (raw) => {
        if (!(values as readonly string[]).includes(raw)) throw new Error(`must be one of ${values.join(', ')}`);
        return raw as T;
      },
    },
    fallback,
  );
}

/** A 32-byte key given in base64 (`openssl rand -base64 32`); optional ones read as undefined when unset. */
function key256(env: string): Setting<Buffer>;
function key256(env: string, opts: { optional: true }): Setting<Buffer | undefined>;
function key256(env: string, opts: { optional?: boolean } = {}): Setting<Buffer | undefined> {
  return {
    env,
    secret: true,
    parse: (raw) => {
      const key = /^[A-Za-z0-9+/]+={0,2}$/.test(raw.trim()) ? Buffer.from(raw.trim(), 'base64') : Buffer.alloc(0);
      if (key.length !== 32) throw new Error('must be 32 random bytes in base64 (openssl rand -base64 32)');
      return key;
    },
    ...(opts.optional && { fallback: () => undefined }),
  };
}

/** A public Ed25519 key as a JWK, named by its `kid`. */
export interface PublicJwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
  readonly kid: string;
  /** A door's key (`"door": "dashboard"`): it signs only for a person it names, and only what that door does (D17). */
  readonly door?: string;
}

/**
 * Public Ed25519 JWKs: a JWKS (`{"keys":[…]}`), a JSON array of JWKs, or one
 * JWK. Each must name itself (`kid`); a private key is refused, so that one
 * pasted by mistake is not left in a ConfigMap. A door's key says whose
 * (`"door": "dashboard"`).
 */
export function publicJwks(env: string): Setting<readonly PublicJwk[]> {
  return {
    env,
    // Never echoed: what was pasted by mistake may be a private key.
    secret: true,
    parse: (raw) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        throw new Error('must be JSON: a JWKS, an array of JWKs or one JWK');
      }
      const keys: unknown[] = Array.isArray(parsed) ? parsed : Array.isArray((parsed as { keys?: unknown })?.keys) ? (parsed as { keys: unknown[] }).keys : [parsed];
      if (keys.length === 0) throw new Error('must hold at least one key');
      return keys.map((key, i) => {
        const jwk = (key ?? {}) as Record<string, unknown>;
        if (jwk['d'] !== undefined) throw new Error(`key ${i} is a private key: give only public keys`);
        if (jwk['kty'] !== 'OKP' || jwk['crv'] !== 'Ed25519' || typeof jwk['x'] !== 'string') throw new Error(`key ${i} is not an Ed25519 public JWK`);
        if (typeof jwk['kid'] !== 'string' || jwk['kid'] === '') throw new Error(`key ${i} has no kid`);
        const door = jwk['door'];
        if (door !== undefined && (typeof door !== 'string' || door === '')) throw new Error(`key ${i}: door must name the door whose key it is`);
        return { kty: 'OKP', crv: 'Ed25519', x: jwk['x'], kid: jwk['kid'], ...(door !== undefined && { door }) };
      });
    },
  };
}

/** A private Ed25519 JWK (JSON) with a kid: a key a service signs operator commands with (the dashboard's, D17). Never echoed. */
export function privateJwk(env: string): Setting<Record<string, unknown>> {
  return {
    env,
    secret: true,
    parse: (raw) => {
      let jwk: unknown;
      try {
        jwk = JSON.parse(raw);
      } catch {
        throw new Error('must be a JSON private JWK');
      }
      const key = (jwk ?? {}) as Record<string, unknown>;
      if (key['kty'] !== 'OKP' || key['crv'] !== 'Ed25519' || typeof key['d'] !== 'string' || typeof key['kid'] !== 'string') {
        throw new Error('must be a private Ed25519 JWK with a kid (gateway-admin operator keygen makes one)');
      }
      return key;
    },
  };
}

/**
 * D17: the key-encryption key that wraps the data keys of the services that
 * keep secrets (api-gateway, acquirer-adapter, webhook-dispatcher), and during
 * its rotation the key it replaces, so data keys still wrapped under that one
 * open until `gateway-admin secrets rewrap` has run.
 */
export const secretsKeys = {
  secretsKek: key256('SECRETS_KEK'),
  secretsKekPrevious: key256('SECRETS_KEK_PREVIOUS', { optional: true }),
};

/**
 * The operators' public keys (D17), required of every service that runs
 * operator commands: with none, the service does not start.
 */
export const operatorSettings = {
  operatorPublicKeys: publicJwks('OPERATOR_PUBLIC_KEYS'),
};

/**
 * The least time between two claim rounds of a service's outbox relay: under
 * load the events of that many milliseconds leave in one round (two database
 * round trips), at a trickle each leaves at once.
 */
export const outboxGatherMs = int('OUTBOX_GATHER_MS', 10, { min: 0, max: 1_000 });

/**
 * How many commands a replica handles at once, per lane of its command queues
 * (contracts' commandLane): the fast lane's creates, reads and lists answer in
 * milliseconds; a slow command (a payment or refund step) holds its slot while
 * the acquirer answers, up to its timeout, so that lane has room for many.
 */
export const commandPrefetch = {
  commandPrefetch: int('COMMAND_PREFETCH', 256, { min: 1, max: 10_000 }),
  slowCommandPrefetch: int('SLOW_COMMAND_PREFETCH', 1_024, { min: 1, max: 10_000 }),
};

/**
 * Where Redis is: REDIS_URL, or (D23) the master the Sentinels at
 * REDIS_SENTINELS elect under REDIS_SENTINEL_NAME, reached with REDIS_URL's
 * user, password, database number and TLS (rediss:).
 */
export const redisSettings = {
  redisUrl: url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:'], { secret: true }),
  redisSentinels: hostPorts('REDIS_SENTINELS', []),
  redisSentinelName: str('REDIS_SENTINEL_NAME', 'gateway'),
};

/**
 * The limits counted in Redis, shared by every replica of every door that
 * counts them (the API gateway's budgets and export slots, the dashboard's
 * sign-in throttles and export slots): one namespace for their keys, so that
 * the doors of one system count together and systems sharing a Redis never
 * do; and how many replicas of the service share a limit when Redis does not
 * answer, each then counting alone at its share. It must be the most replicas
 * the service may run (its autoscaler's maxReplicas), never the usual count.
 */
export const rateLimitSettings = {
  rateLimitKeyPrefix: str('RATE_LIMIT_KEY_PREFIX', 'rl'),
  rateLimitFallbackReplicas: int('RATE_LIMIT_FALLBACK_REPLICAS', 1, { min: 1, max: 1000 }),
};

/**
 * The CSV exports (D21, D29), at every door that serves them (the API
 * gateway's /gateway/exports/*.csv, the dashboard's Reports downloads): one
 * count of running exports per merchant and mode for both, one longest time.
 */
export const exportSettings = {
  /** An export whose client takes no byte for this long is cut off, freeing its pages and its socket. */
  exportIdleTimeoutMs: int('EXPORT_IDLE_TIMEOUT_MS', 60_000, { min: 100, max: 3_600_000 }),
  /** D29: exports one merchant may run at once in one mode, every door and replica together; the next answers 429. */
  exportsPerMerchant: int('EXPORTS_PER_MERCHANT', 3, { min: 1, max: 100 }),
  /** D29: an export still running after this many seconds is cut off, however fast its client reads. */
  exportMaxSeconds: int('EXPORT_MAX_SECONDS', 600, { min: 1, max: 86_400 }),
  /**
   * How long a running export's slot outlives its last renewal (renewed three
   * times a lease): the longest a replica that died keeps its exports' slots.
   */
  exportSlotLeaseSeconds: int('EXPORT_SLOT_LEASE_SECONDS', 30, { min: 1, max: 600 }),
};

/** An IP address to listen on: 0.0.0.0 or :: (every interface), 127.0.0.1 or ::1 (this machine only). */
function listenAddress(env: string, fallback: string): Setting<string> {
  return withDefault(
    {
      env,
      parse: (raw) => {
        if (isIP(raw) === 0) throw new Error('must be an IP address: 0.0.0.0 (every interface) or 127.0.0.1 (this machine only)');
        return raw;
      },
    },
    fallback,
  );
}

/**
 * Where a service's HTTP port listens, and where its /metrics is served: on
 * PORT beside its routes (where a cluster's Prometheus scrapes it), or, with
 * METRICS_PORT, on a port of its own on loopback only (make up), and then
 * not on PORT.
 */
const listening = {
  listenHost: listenAddress('LISTEN_HOST', '0.0.0.0'),
  metricsPort: { ...int('METRICS_PORT', undefined, { min: 0, max: 65535 }), fallback: () => undefined } as Setting<number | undefined>,
};

/**
 * How many proxies of ours stand in front of a service that reads its
 * clients' addresses (D12, D14, D29): with n, a client is the
 * X-Forwarded-For entry n back from the right, the one our outermost proxy
 * appended; with 0, the default, the peer, whatever the header says.
 */
export const proxySettings = {
  trustProxyHops: int('TRUST_PROXY_HOPS', 0, { min: 0, max: 10 }),
};

/** Settings every service shares: where the shared servers are and how it names itself. */
export const common = {
  ...listening,
  /** One broker node, or the nodes of a cluster comma-separated: a service connects to the first that answers (D23). */
  amqpUrl: urlList('AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672', ['amqp:', 'amqps:'], { secret: true }),
  /** Prefix of every exchange and queue name; lets several systems share one broker. */
  brokerPrefix: str('BROKER_PREFIX', 'gw'),
  /**
   * Every service logs in as one broker user (a local run where users cannot be
   * created): nobody can tell senders apart, so a service refuses to start on
   * another user than its own (`<prefix>.<service>`) unless this says so (D17).
   */
  brokerSharedUser: bool('BROKER_SHARED_USER', false),
  logLevel: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  rpcTimeoutMs: int('RPC_TIMEOUT_MS', 5000, { min: 50, max: 120_000 }),
  shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', 10_000, { min: 100, max: 120_000 }),
};
