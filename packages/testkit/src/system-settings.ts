/**
 * What the services of a test system are given: the system's description wired
 * with the test's own database, broker users, keys, ports, Redis and mail
 * catcher, then the tests' shorter waits; and what every process of the system
 * (gateway-admin run against it too) is given beneath.
 */
import type { BrokerPrincipal, SchemaOwner } from '@gateway/contracts';
import { SERVICE_NAMES, serviceEnvironment, type ServiceId, type SystemKeys, type SystemWiring } from '@gateway/system';
import type { BrokerUrls } from './broker.js';
import type { TestDatabase } from './database.js';

/** The sandbox terminal's credentials in test systems. */
export const SANDBOX_TERMINAL = { user: 'gateway-test', password: 'sandbox-test-password' };

/** The credentials of the live terminal the sandbox also accepts, standing in for a real acquirer's. */
export const LIVE_TERMINAL = { user: 'merchant-live', password: 'merchant-live-password' };

/** What one test system is made of, for its services' settings. */
export interface TestSystemParts {
  readonly keys: SystemKeys;
  /** The port of each service's first process, by name. */
  readonly ports: Readonly<Record<string, number>>;
  readonly db: TestDatabase;
  /** The system's broker prefix, which its Redis keys take too. */
  readonly prefix: string;
  readonly brokerUrls: BrokerUrls;
  readonly redisUrl: string;
  /** The mail catcher the notifier sends to. */
  readonly smtpUrl: string;
}

/**
 * Each service's own settings in the test system of `parts` (its wired
 * settings, then the tests' shorter waits), and those every process is given
 * beneath them (`extraEnv` over the defaults here).
 */
export function testSystemSettings(
  { keys, ports, db, prefix, brokerUrls, redisUrl, smtpUrl }: TestSystemParts,
  extraEnv: Readonly<Record<string, string>> = {},
): { perService: Record<ServiceId, Record<string, string>>; baseEnv: Record<string, string> } {
  const wiring: SystemWiring = {
    keys,
    ports,
    databaseUrl: (service) => db.urlFor(service as SchemaOwner),
    brokerUrl: (principal) => brokerUrls[principal as BrokerPrincipal],
    brokerPrefix: prefix,
    redisUrl,
    redisKeyPrefix: prefix,
    sandboxTerminals: [SANDBOX_TERMINAL, LIVE_TERMINAL],
    smtpUrl,
  };
  const sandboxRest = `http://127.0.0.1:${ports['epg-sandbox']}/payment/rest/`;
  // Shorter waits than production's, so that tests of timeouts take seconds.
  const testSettings: Partial<Record<ServiceId, Record<string, string>>> = {
    // Test receivers listen on loopback; the SSRF tests turn the address rule back on.
    'api-gateway': { WEBHOOK_ALLOW_PRIVATE: 'true' },
    session: { ADAPTER_TIMEOUT_MS: '9000', WEBHOOK_ALLOW_PRIVATE: 'true' },
    'webhook-dispatcher': { WEBHOOK_ALLOW_PRIVATE: 'true' },
    checkout: { PAYMENT_TIMEOUT_MS: '10000' },
    // The live terminals of test merchants are the sandbox's too.
    'acquirer-adapter': { ACQUIRER_LIVE_URL: sandboxRest, ACQUIRER_TIMEOUT_MS: '5000' },
    'epg-sandbox': { SANDBOX_SLOW_DELAY_MS: '7000' },
    // No second factor for test operators; the cheapest password hash the dashboard accepts, so signing in stays fast.
    dashboard: { OPS_TOTP_REQUIRED: 'false', PASSWORD_HASH_COST: '1024' },
    // A mail the catcher could not take is tried again within seconds.
    notifier: { MAIL_SEND_INTERVAL_SECONDS: '1', MAIL_RETRY_FIRST_SECONDS: '1', MAIL_RETRY_MAX_SECONDS: '2', SMTP_TIMEOUT_MS: '3000' },
  };
  const perService = Object.fromEntries(
    SERVICE_NAMES.map((service) => [service, { ...serviceEnvironment(service, wiring), ...testSettings[service] }]),
  ) as Record<ServiceId, Record<string, string>>;
  const baseEnv: Record<string, string> = {
    // The operators' user: what gateway-admin run against this system connects as. Each service has its own.
    AMQP_URL: brokerUrls['gateway-admin'],
    REDIS_URL: redisUrl,
    BROKER_PREFIX: prefix,
    RATE_LIMIT_KEY_PREFIX: prefix,
    PUBLIC_BASE_URL: `http://127.0.0.1:${ports['api-gateway']}`,
    LOG_LEVEL: 'info',
    RPC_TIMEOUT_MS: '3000',
    SHUTDOWN_TIMEOUT_MS: '5000',
    // Several systems run at once, each service with its own pool, on one PostgreSQL (100 connections by default).
    DB_POOL_MAX: '4',
    OPERATOR_PUBLIC_KEYS: perService['api-gateway']['OPERATOR_PUBLIC_KEYS'] ?? '',
    ...extraEnv,
  };
  return { perService, baseEnv };
}
