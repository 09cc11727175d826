/**
 * The system in one place: each service, where it listens, what it owns (its
 * database schema, its broker user), whether `make up REPLICAS=n` runs several
 * of it, and the settings it takes from the rest of the system (its keys, its
 * neighbours' addresses, its database and broker URLs). Every launcher (make up,
 * make bench, the test harness, the image smoke test) and the deployment checks
 * read it. Every other setting keeps the default of the service's own
 * src/config.ts; this file never repeats one. Which services there are (their
 * names, schemas, broker users, whether they keep secrets) is the list of
 * services in @gateway/contracts; this file describes each of them by name.
 */
import { SERVICE_LIST, type ServiceBasics, type ServiceId } from '@gateway/contracts';
import { operatorPublicKeys, type SystemKeys } from './keys.mjs';

export { SCHEMA_OWNERS, type ServiceId } from '@gateway/contracts';

/** A terminal of the sandbox acquirer: the credentials a caller of its REST API gives. */
export interface Terminal {
  readonly user: string;
  readonly password: string;
}

/** An application of the sandbox's Flouci API: the keys its caller gives as `Authorization: Bearer PUBLIC_KEY:PRIVATE_KEY`. */
interface FlouciApp {
  readonly publicKey: string;
  readonly privateKey: string;
}

/** What one running system is made of, for its services' wired settings. */
export interface SystemWiring {
  readonly keys: SystemKeys;
  /** The port of each service's first process, by name: its neighbours reach it there. */
  readonly ports: Readonly<Record<string, number>>;
  /** The host the services reach each other on (127.0.0.1 when not given). */
  readonly host?: string;
  /** Where merchants and buyers reach the gateway (the links it answers, the pages' redirects); the gateway's own address when not given. */
  readonly publicBaseUrl?: string;
  /** Where a buyer's browser reaches the sandbox's 3-D Secure page; the sandbox's own address when not given. */
  readonly sandboxPublicUrl?: string;
  /** The URL a schema-owning service connects to the database with. */
  readonly databaseUrl: (service: ServiceId) => string;
  /** The URL a broker principal connects with. */
  readonly brokerUrl: (principal: string) => string;
  /** The prefix of every exchange and queue of this system; each service's own default when not given. */
  readonly brokerPrefix?: string;
  /** Redis, for the services that keep rate-limit buckets there; each service's own default when not given. */
  readonly redisUrl?: string;
  /** The prefix of this system's Redis keys, so that systems sharing a Redis never share buckets; each service's own default when not given. */
  readonly redisKeyPrefix?: string;
  /** The public keys of the operators every service trusts, beside the dashboard's; the operator key's public half when not given. */
  readonly operators?: readonly object[];
  /** The mail server the notifier sends through (D20); the notifier's own default when not given. */
  readonly smtpUrl?: string;
  /** The terminals the sandbox accepts, test mode's (the adapter's) first; both sides' defaults when not given. */
  readonly sandboxTerminals?: readonly Terminal[];
  /** The Flouci applications the sandbox knows (D26's test mode); the sandbox's own default when not given. */
  readonly sandboxFlouciApps?: readonly FlouciApp[];
}

/** A setting a service takes from the rest of the system; undefined leaves the service's own default. */
type WiredSetting = (system: SystemWiring) => string | undefined;

/** What the description adds to the list of services (@gateway/contracts' SERVICE_LIST) for one service. */
interface Described {
  /** Where it listens by default (its config.ts's PORT default, docker-compose's and k8s' port). */
  readonly port: number;
  /** Whether `make up REPLICAS=n` runs n of it: a worker whose replicas share its queues, not a front door with a fixed port. */
  readonly replicated: boolean;
  /** Its own wired settings, by environment variable, beside those its other fields imply. */
  readonly wired: Readonly<Record<string, WiredSetting>>;
}

export interface ServiceDescription extends Described {
  /** Its folder under services/, its package `@gateway/<name>` and its process name. */
  readonly name: ServiceId;
  /** The database schema it owns and migrates (DATABASE_URL, as role svc_<schema>); none for a service without tables. */
  readonly schema?: string;
  /** The broker user it connects as (AMQP_URL, BROKER_PREFIX); none for a service without a broker. */
  readonly principal?: string;
  /** Whether it keeps secrets encrypted (D17), and so takes the system's SECRETS_KEK. */
  readonly keepsSecrets: boolean;
}

/** The HTTP address of `service`'s first process, as its neighbours reach it. */
function addressOf(system: SystemWiring, service: string): string {
  return `http://${system.host ?? '127.0.0.1'}:${portOf(system, service)}`;
}

function portOf(system: SystemWiring, service: string): number {
  const port = system.ports[service];
  if (port === undefined) throw new Error(`no port for ${service} in this system`);
  return port;
}

const publicBaseUrl: WiredSetting = (system) => system.publicBaseUrl ?? addressOf(system, 'api-gateway');
/** Where a buyer's browser reaches the sandbox's pages: the sandbox's own address unless the system says otherwise. */
const sandboxPublicUrl: WiredSetting = (system) => system.sandboxPublicUrl ?? addressOf(system, 'epg-sandbox');
const operators: WiredSetting = (system) => operatorPublicKeys(system.keys, system.operators);
/** Where a service keeps its rate-limit buckets: the system's Redis, under the system's own key prefix. */
const rateLimitBuckets: Record<string, WiredSetting> = { REDIS_URL: (system) => system.redisUrl, RATE_LIMIT_KEY_PREFIX: (system) => system.redisKeyPrefix };

/** What the description adds to each service of the list, by name: the compiler checks that every service is described, and nothing else. */
const DESCRIBED: Readonly<Record<ServiceId, Described>> = {
  'api-gateway': {
    port: 8080,
    replicated: false,
    wired: {
      PUBLIC_BASE_URL: publicBaseUrl,
      ...rateLimitBuckets,
      CHECKOUT_UPSTREAM_URL: (system) => addressOf(system, 'checkout'),
      DASHBOARD_UPSTREAM_URL: (system) => addressOf(system, 'dashboard'),
      OPERATOR_PUBLIC_KEYS: operators,
    },
  },
  checkout: {
    port: 8081,
    replicated: true,
    wired: {
      PUBLIC_BASE_URL: publicBaseUrl,
      LINK_VERIFY_KEY: (system) => system.keys.link.publicJwk,
      CARD_ENCRYPTION_KEY: (system) => system.keys.card.publicJwk,
      // Test mode: the one origin besides https: ones the page hands a buyer's browser to (D30).
      SANDBOX_PUBLIC_URL: sandboxPublicUrl,
    },
  },
  session: {
    port: 8082,
    replicated: true,
    wired: {
      PUBLIC_BASE_URL: publicBaseUrl,
      LINK_SIGNING_KEY: (system) => system.keys.link.privateJwk,
      OPERATOR_PUBLIC_KEYS: operators,
    },
  },
  'acquirer-adapter': {
    port: 8083,
    replicated: true,
    wired: {
      CARD_DECRYPTION_KEY: (system) => system.keys.card.privateJwk,
      ACQUIRER_TEST_URL: (system) => `${addressOf(system, 'epg-sandbox')}/payment/rest/`,
      ACQUIRER_TEST_USER: (system) => system.sandboxTerminals?.[0]?.user,
      ACQUIRER_TEST_PASSWORD: (system) => system.sandboxTerminals?.[0]?.password,
      // D26: test mode's Flouci is the sandbox's, with its first application.
      FLOUCI_TEST_URL: (system) => `${addressOf(system, 'epg-sandbox')}/api/v2/`,
      FLOUCI_TEST_PUBLIC_KEY: (system) => system.sandboxFlouciApps?.[0]?.publicKey,
      FLOUCI_TEST_PRIVATE_KEY: (system) => system.sandboxFlouciApps?.[0]?.privateKey,
      OPERATOR_PUBLIC_KEYS: operators,
    },
  },
  refund: { port: 8084, replicated: true, wired: { OPERATOR_PUBLIC_KEYS: operators } },
  'webhook-dispatcher': { port: 8085, replicated: true, wired: { OPERATOR_PUBLIC_KEYS: operators } },
  // A fake of the acquirer whose orders are in memory, so never replicated.
  'epg-sandbox': {
    port: 8086,
    replicated: false,
    wired: {
      SANDBOX_PUBLIC_URL: sandboxPublicUrl,
      SANDBOX_TERMINALS: (system) => system.sandboxTerminals?.map(({ user, password }) => `${user}:${password}`).join(','),
      SANDBOX_FLOUCI_APPS: (system) => system.sandboxFlouciApps?.map(({ publicKey, privateKey }) => `${publicKey}:${privateKey}`).join(','),
    },
  },
  // The merchant dashboard and the operations console, which the gateway passes /dashboard/ and /ops/ to.
  dashboard: {
    port: 8087,
    replicated: false,
    wired: {
      PUBLIC_BASE_URL: publicBaseUrl,
      ...rateLimitBuckets,
      DASHBOARD_SIGNING_KEY: (system) => system.keys.dashboard.privateJwk,
      // D26: a merchant's Flouci private key is sealed for the adapter before it crosses the broker.
      CARD_ENCRYPTION_KEY: (system) => system.keys.card.publicJwk,
      OPERATOR_PUBLIC_KEYS: operators,
    },
  },
  // Balance transactions, the balance and the daily report (D21), written from payment and refund events.
  ledger: { port: 8088, replicated: true, wired: {} },
  // Mail (D20): the buyer's receipts, written from payment and refund events to its mail queue and sent over SMTP, its one outside party.
  notifier: { port: 8089, replicated: true, wired: { SMTP_URL: (system) => system.smtpUrl } },
};

/** Every service of the system, in the order of their ports: the list of services, each with its description. */
export const SERVICES: readonly ServiceDescription[] = SERVICE_LIST.map((service: ServiceBasics & { name: ServiceId }) => ({
  name: service.name,
  port: DESCRIBED[service.name].port,
  ...(service.schema !== undefined && { schema: service.schema }),
  ...(service.broker && { principal: service.name }),
  replicated: DESCRIBED[service.name].replicated,
  keepsSecrets: service.keepsSecrets,
  wired: DESCRIBED[service.name].wired,
}));

/** Every service's name, in the order of their ports. */
export const SERVICE_NAMES: readonly ServiceId[] = SERVICES.map((service) => service.name);

/** The description of `name`; throws for a name that is no service of the system. */
export function descriptionOf(name: string): ServiceDescription {
  const found = SERVICES.find((service) => service.name === name);
  if (!found) throw new Error(`${name} is no service of the system (${SERVICE_NAMES.join(', ')})`);
  return found;
}

/** The services that keep secrets (D17), each given the system's SECRETS_KEK. */
export const SECRET_KEEPERS: readonly ServiceId[] = SERVICES.filter((service) => service.keepsSecrets).map((service) => service.name);

/** The services `make up REPLICAS=n` runs n of. */
export const REPLICATED: readonly ServiceId[] = SERVICES.filter((service) => service.replicated).map((service) => service.name);

/**
 * Every setting `service` takes from the rest of the system, by environment
 * variable: PORT, its database and broker URLs, SECRETS_KEK if it keeps secrets,
 * then its own wired settings. A setting whose value is undefined is left out.
 */
function wiredSettings(service: ServiceId, system: SystemWiring): Record<string, string> {
  const description = descriptionOf(service);
  const settings: Record<string, string | undefined> = {
    PORT: String(portOf(system, service)),
    ...(description.schema !== undefined && { DATABASE_URL: system.databaseUrl(service) }),
    ...(description.principal !== undefined && { AMQP_URL: system.brokerUrl(description.principal), BROKER_PREFIX: system.brokerPrefix }),
    ...(description.keepsSecrets && { SECRETS_KEK: system.keys.secretsKek }),
    ...Object.fromEntries(Object.entries(description.wired).map(([variable, setting]) => [variable, setting(system)])),
  };
  return Object.fromEntries(Object.entries(settings).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** The names of the settings `service` may be wired with (whatever their values in one system). */
export function wiredVariables(service: ServiceId): string[] {
  const description = descriptionOf(service);
  return [
    'PORT',
    ...(description.schema !== undefined ? ['DATABASE_URL'] : []),
    ...(description.principal !== undefined ? ['AMQP_URL', 'BROKER_PREFIX'] : []),
    ...(description.keepsSecrets ? ['SECRETS_KEK'] : []),
    ...Object.keys(description.wired),
  ];
}

/** Extra settings for one system's services, over their defaults. */
interface ExtraEnvironment {
  /** Settings every service is given, under its wired ones (LOG_LEVEL, RPC_TIMEOUT_MS...). */
  readonly env?: Readonly<Record<string, string>>;
  /** Settings of one service, over its wired ones (a test's shorter timeouts, a development machine's relaxed rules). */
  readonly serviceEnv?: Readonly<Partial<Record<ServiceId, Readonly<Record<string, string>>>>>;
}

/** The environment of `service` in `system`: the extra settings for all, its wired settings, then its own extra ones. */
export function serviceEnvironment(service: ServiceId, system: SystemWiring, extra: ExtraEnvironment = {}): Record<string, string> {
  return { ...extra.env, ...wiredSettings(service, system), ...extra.serviceEnv?.[service] };
}

/** The environment of every service of `system`, by name. */
export function systemEnvironment(system: SystemWiring, extra: ExtraEnvironment = {}): Record<ServiceId, Record<string, string>> {
  return Object.fromEntries(SERVICE_NAMES.map((service) => [service, serviceEnvironment(service, system, extra)])) as Record<ServiceId, Record<string, string>>;
}

/** The name of replica `index` (0 first) of `service`: the service's own name, then `<service>-2`, `<service>-3`... */
export function replicaName(service: ServiceId, index: number): string {
  return index === 0 ? service : `${service}-${index + 1}`;
}

/** The port of replica `index` (0 first) of a service whose first process listens on `port`: `port` + 10 × index. */
export function replicaPort(port: number, index: number): number {
  return port + 10 * index;
}
