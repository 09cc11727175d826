/** The sandbox acquirer's settings, read and checked before it starts. */
import { randomBytes } from 'node:crypto';
import { bool, common, int, loadConfig, url, type Setting } from '@gateway/config';

/** PUBLIC_KEY → PRIVATE_KEY of every Flouci application the sandbox knows (WALLET.md). */
export type FlouciApps = ReadonlyMap<string, string>;

/**
 * `name:secret` pairs separated by commas, as `what` names them; a secret may
 * itself contain `:`, a name may not.
 */
function credentialPairs(env: string, fallback: string, what: string): Setting<ReadonlyMap<string, string>> {
  const parse = (raw: string): ReadonlyMap<string, string> => {
    const out = new Map<string, string>();
    for (const pair of raw.split(',')) {
      const at = pair.indexOf(':');
      const name = pair.slice(0, at).trim();
      const secret = pair.slice(at + 1);
      if (at < 0 || name === '' || secret === '') throw new Error(`must be comma-separated ${what} pairs`);
      if (out.has(name)) throw new Error(`names a ${what.split(':')[0]} twice`);
      out.set(name, secret);
    }
    return out;
  };
  return { env, parse, fallback: () => parse(fallback), secret: true };
}

/** An HMAC key; 32 fresh random bytes at boot when unset, so tokens die with the process. */
function hmacKey(env: string): Setting<Buffer> {
  return {
    env,
    secret: true,
    parse: (raw) => {
      if (raw.length < 16) throw new Error('must be at least 16 characters');
      return Buffer.from(raw, 'utf8');
    },
    fallback: () => randomBytes(32),
  };
}

// Only the logging and shutdown settings of `common`: the sandbox has no broker,
// so AMQP_URL, BROKER_PREFIX and RPC_TIMEOUT_MS would be settings that do nothing.
export const sandboxSettings = {
  logLevel: common.logLevel,
  shutdownTimeoutMs: common.shutdownTimeoutMs,
  listenHost: common.listenHost,
  metricsPort: common.metricsPort,
  port: int('PORT', 8086, { min: 0, max: 65535 }),
  /** userName → password of every terminal the sandbox accepts. */
  terminals: credentialPairs('SANDBOX_TERMINALS', 'gateway-test:gateway-test-password', 'userName:password'),
  /** The Flouci applications whose `Authorization: Bearer PUBLIC_KEY:PRIVATE_KEY` the sandbox's Flouci API accepts. */
  flouciApps: credentialPairs('SANDBOX_FLOUCI_APPS', 'gateway-flouci-test-public:gateway-flouci-test-private', 'PUBLIC_KEY:PRIVATE_KEY'),
  /** Base URL a buyer's browser uses to reach the sandbox (acsUrl, formUrl). */
  publicUrl: url('SANDBOX_PUBLIC_URL', 'http://localhost:8086'),
  /** How long the "does not answer in time" card keeps its caller waiting. */
  slowDelayMs: int('SANDBOX_SLOW_DELAY_MS', 30_000, { min: 0, max: 600_000 }),
  /** Orders kept in memory, and as many Flouci payments; the oldest are forgotten beyond it. */
  orderRetention: int('SANDBOX_ORDER_RETENTION', 200_000, { min: 1, max: 10_000_000 }),
  /** Key of the paReq/paRes tokens and of the ACS page's decisions. */
  secret: hmacKey('SANDBOX_SECRET'),
  /**
   * Plays a deployment WITHOUT finish3dsVer2Payment.do (ACQUIRER.md "3-D
   * Secure 2"; SATIM's test gateway is one): the call answers HTTP 404, and
   * the ACS posts cres to the sandbox's own finish endpoint, which finishes
   * the order itself and sends the browser to register.do's returnUrl with a
   * GET (303). Off: the ACS posts cres to threeDSVer2FinishUrl and the
   * merchant finishes with finish3dsVer2Payment.do.
   */
  withoutFinish3dsVer2: bool('SANDBOX_WITHOUT_FINISH_3DS_VER2', false),
};

export type SandboxConfig = ReturnType<typeof loadSandboxConfig>;

/** Reads and checks the sandbox's settings; throws one ConfigError naming every bad value. */
export function loadSandboxConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(sandboxSettings, env);
}
