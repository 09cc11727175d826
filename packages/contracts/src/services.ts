/**
 * The services of the system, listed once: each one's name, the database schema
 * it owns, whether it connects to the broker and whether it keeps secrets. The
 * rest derive from this list: the broker's users and topology (here), the
 * database's schemas and roles (@gateway/db), each service's own schema, and
 * the system's description (@gateway/system), which describes every service
 * named here, no more and no fewer.
 */

/** What the whole system knows of one service, whoever reads it. */
export interface ServiceBasics {
  /** Its folder under services/, its package `@gateway/<name>` and its process name. */
  readonly name: string;
  /** The database schema it owns and migrates (as role svc_<schema>); none for a service without tables. */
  readonly schema?: string;
  /** Whether it connects to the broker, as a broker user of its own name. */
  readonly broker: boolean;
  /** Whether it keeps secrets encrypted (D17), re-wrapped by its `<schema>.secrets.rewrap` command. */
  readonly keepsSecrets: boolean;
}

/** Every service of the system, in the order of their ports. */
export const SERVICE_LIST = [
  { name: 'api-gateway', schema: 'api_gateway', broker: true, keepsSecrets: true },
  { name: 'checkout', schema: 'checkout', broker: true, keepsSecrets: false },
  { name: 'session', schema: 'session', broker: true, keepsSecrets: false },
  { name: 'acquirer-adapter', schema: 'acquirer', broker: true, keepsSecrets: true },
  { name: 'refund', schema: 'refund', broker: true, keepsSecrets: false },
  { name: 'webhook-dispatcher', schema: 'webhooks', broker: true, keepsSecrets: true },
  // A fake of the acquirer: no tables, no broker, its orders in memory.
  { name: 'epg-sandbox', broker: false, keepsSecrets: false },
  { name: 'dashboard', schema: 'dashboard', broker: true, keepsSecrets: true },
  { name: 'ledger', schema: 'ledger', broker: true, keepsSecrets: false },
  { name: 'notifier', schema: 'notifier', broker: true, keepsSecrets: false },
] as const satisfies readonly ServiceBasics[];

type Listed = (typeof SERVICE_LIST)[number];

/** The name of a service of the system. */
export type ServiceId = Listed['name'];

/** A service that connects to the broker, as the broker user of its name. */
export type ServiceName = Extract<Listed, { broker: true }>['name'];

/** A service that owns a database schema. */
export type SchemaOwner = Extract<Listed, { schema: string }>['name'];

/** A service that keeps secrets encrypted (D17). */
export type SecretKeeper = Extract<Listed, { keepsSecrets: true }>['name'];

/** The schema `service` owns. */
type SchemaOf<S extends SchemaOwner> = Extract<Listed, { name: S }>['schema'];

/** The services that own a schema, in the order of their ports. */
export const SCHEMA_OWNERS: readonly SchemaOwner[] = SERVICE_LIST.flatMap((service) => ('schema' in service ? [service.name] : []));

/** The schema `service` owns. */
export function schemaOf<S extends SchemaOwner>(service: S): SchemaOf<S> {
  const listed = SERVICE_LIST.find((candidate) => candidate.name === service);
  if (!listed || !('schema' in listed)) throw new Error(`${service} owns no schema`);
  return listed.schema as SchemaOf<S>;
}
