/**
 * gateway-admin (DECISIONS D13): operator commands. Each is one or more
 * commands on the broker to the services that own the data, signed with the
 * operator's key (D17); the CLI never touches a database.
 */
import { parseArgs } from 'node:util';
import { SECRETS_REWRAP_COMMANDS, type CommandReply, type CommandRequest, type CommandType, type DashboardRole, type Mode } from '@gateway/contracts';
import { generateOperatorKey } from '@gateway/messaging';

/** Sends one command and resolves with its reply body; `timeoutMs`, when given, is the least it waits for the reply. */
export type Send = <C extends CommandType>(type: C, data: CommandRequest<C>, options?: { timeoutMs?: number }) => Promise<CommandReply<C>>;

/** How long `terminal probe` waits: longer than the adapter waits on the acquirer (ACQUIRER_TIMEOUT_MS, 15 s by default), so its answer, even a timeout, arrives. */
const PROBE_TIMEOUT_MS = 20_000;
/** How long a create with a password waits: the dashboard hashes it at full cost (a second or more of CPU on a busy host) before it answers. */
const PASSWORD_TIMEOUT_MS = 20_000;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const USAGE = `usage: gateway-admin <command>
  merchant create --name N [--order-prefix P] [--webhook-url U]
  merchant approve-kyb MERCHANT_ID
  merchant suspend MERCHANT_ID | merchant reactivate MERCHANT_ID
  key create MERCHANT_ID --mode test|live
  key revoke KEY_ID
  key reveal KEY_ID                 (test keys only)
  rate set MERCHANT_ID --mode test|live --currency C --rate R
  rate remove MERCHANT_ID --mode test|live --currency C
  limits set MERCHANT_ID --mode test|live [--account N] [--create N] [--refund N]
  terminal set MERCHANT_ID --mode live --user U --password P [--inactive]
  terminal probe --merchant MERCHANT_ID (--order-number N | --order-id ID)   (live terminal: reads one order, charges nothing)
  fees set MERCHANT_ID --percent P --fixed F
  webhook set-url MERCHANT_ID --mode test|live --url U
  webhook rotate-secret MERCHANT_ID --mode test|live
  webhook resend DELIVERY_ID
  refund list-manual
  refund resolve REFUND_ID --as succeeded|failed
  secrets rewrap                    (after deploying a new SECRETS_KEK with the old one as SECRETS_KEK_PREVIOUS)
  audit list [--merchant MERCHANT_ID] [--limit N]
  user create MERCHANT_ID --email E --role owner|developer|viewer [--password P]
  operator create --email E [--password P]
  operator keygen

Operator commands are signed: set OPERATOR_KEY (a private JWK) or OPERATOR_KEY_FILE
(a file holding one), and OPERATOR_NAME (who you are; the key's kid by default).
They go over the broker at AMQP_URL as the operators' user (BROKER_PREFIX.gateway-admin).
In a checkout where \`make up\` runs, AMQP_URL, BROKER_PREFIX and OPERATOR_KEY_FILE
default to that run's (.local/gateway-admin.json).
\`operator keygen\` prints a new key pair; its public_jwk goes into the services'
OPERATOR_PUBLIC_KEYS.
\`user create\` (a merchant's dashboard user) and \`operator create\` (an operations
console operator) print a setup_url, valid once for 24 h, where the person sets a
password; --password sets it now instead (tests, demos), and no setup_url is made.`;

type Options = Record<string, string | undefined>;

/** Parses string options and boolean `flags` (a set flag reads as '' in values). */
function parse(args: string[], options: readonly string[], flags: readonly string[] = []): { positionals: string[]; values: Options } {
  try {
    const { positionals, values } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        ...Object.fromEntries(options.map((name) => [name, { type: 'string' as const }])),
        ...Object.fromEntries(flags.map((name) => [name, { type: 'boolean' as const }])),
      },
    });
    const read: Options = {};
    for (const [name, value] of Object.entries(values)) read[name] = value === true ? '' : typeof value === 'string' ? value : undefined;
    return { positionals, values: read };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function required(values: Options, name: string): string {
  const value = values[name];
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function one(positionals: string[], what: string): string {
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError(`expected exactly one ${what}`);
  return positionals[0];
}

function mode(values: Options): Mode {
  const value = required(values, 'mode');
  if (value !== 'test' && value !== 'live') throw new UsageError('--mode must be test or live');
  return value;
}

function role(values: Options): DashboardRole {
  const value = required(values, 'role');
  if (value !== 'owner' && value !== 'developer' && value !== 'viewer') throw new UsageError('--role must be owner, developer or viewer');
  return value;
}

/** `--password` when given (an empty one is refused by the service, not dropped here). */
function password(values: Options): { password?: string } {
  return values['password'] !== undefined ? { password: values['password'] } : {};
}

function count(values: Options, name: string): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number of requests per second`);
  return Number(value);
}

/**
 * A command whose change was made, though not all it prints could be read:
 * `output` is printed as far as it is known (a key shown only once among it)
 * and the command exits 1 with `message`, so nobody runs it again blindly.
 */
export class IncompleteOutput extends Error {
  constructor(
    readonly output: Record<string, unknown>,
    message: string,
  ) {
    super(message);
    this.name = 'IncompleteOutput';
  }
}

/** The endpoint provisioned from a merchant event (its secret and URL); when it cannot be read, what was made, still printed. */
async function endpointOrIncomplete(send: Send, merchantId: string, mode: Mode, made: Record<string, unknown>): Promise<{ url: string; webhook_secret: string }> {
  try {
    return await provisionedSecret(send, merchantId, mode);
  } catch (err) {
    const reason = typeof (err as { code?: unknown }).code === 'string' ? String((err as { code: string }).code) : (err as Error).message;
    throw new IncompleteOutput(
      made,
      `${mode === 'test' ? 'the merchant was created' : 'KYB was approved'}, but its ${mode}-mode webhook secret could not be read (${reason}): the webhook dispatcher provisions it from the merchant event once it runs; read it later (dashboard: Developers, Webhooks, Reveal) and do not run this command again`,
    );
  }
}

/** Reads the secret of the endpoint the dispatcher is provisioning for the merchant in `mode` (from a merchant event), waiting for it a few seconds in all. */
async function provisionedSecret(send: Send, merchantId: string, mode: Mode): Promise<{ url: string; webhook_secret: string }> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await send('webhook_endpoint.reveal_secret', { merchant_id: merchantId, mode, wait_ms: 3000 });
    } catch (err) {
      if (tries >= 3 || (err as { code?: unknown }).code !== 'not-found') throw err;
    }
  }
}

/** Runs one operator command (`argv` without the program name) and returns what it prints. */
export async function runAdmin(argv: readonly string[], send: Send): Promise<Record<string, unknown>> {
  const [group, action, ...rest] = argv;
  const command = `${group ?? ''} ${action ?? ''}`;
  switch (command) {
    case 'merchant create': {
      const { positionals, values } = parse(rest, ['name', 'order-prefix', 'webhook-url']);
      if (positionals.length > 0) throw new UsageError('merchant create takes only options');
      const created = await send('merchant.create', {
        name: required(values, 'name'),
        ...(values['order-prefix'] !== undefined && { order_prefix: values['order-prefix'] }),
        ...(values['webhook-url'] !== undefined && { webhook_url: values['webhook-url'] }),
      });
      // The dispatcher provisions the test-mode endpoint from merchant.created; this reads its secret once it exists.
      const made = { merchant_id: created.merchant_id, test_secret_key: created.test_secret_key };
      const endpoint = await endpointOrIncomplete(send, created.merchant_id, 'test', made);
      const output = { ...made, test_webhook_secret: endpoint.webhook_secret };
      // The gateway checked the URL as written; the dispatcher refuses one whose name resolves to a private address (D11).
      if (values['webhook-url'] !== undefined && endpoint.url === '') {
        throw new IncompleteOutput(
          output,
          'the merchant was created, but the webhook dispatcher refused its webhook URL (its name resolves to an address webhooks may not go to, D11): the test-mode endpoint has no URL; give it one with `webhook set-url` and do not run this command again',
        );
      }
      return output;
    }
    case 'merchant approve-kyb': {
      const merchantId = one(parse(rest, []).positionals, 'MERCHANT_ID');
      const approved = await send('merchant.approve_kyb', { merchant_id: merchantId });
      // The dispatcher provisions the live-mode endpoint from merchant.kyb_approved. The live key is shown only
      // now (stored hashed): a secret that cannot be read must not take it down with it.
      const made = { merchant_id: merchantId, live_secret_key: approved.live_secret_key };
      return { ...made, live_webhook_secret: (await endpointOrIncomplete(send, merchantId, 'live', made)).webhook_secret };
    }
    case 'merchant suspend':
      return send('merchant.suspend', { merchant_id: one(parse(rest, []).positionals, 'MERCHANT_ID') });
    case 'merchant reactivate':
      return send('merchant.reactivate', { merchant_id: one(parse(rest, []).positionals, 'MERCHANT_ID') });
    case 'key create': {
      const { positionals, values } = parse(rest, ['mode']);
      return send('api_key.create', { merchant_id: one(positionals, 'MERCHANT_ID'), mode: mode(values) });
    }
    case 'key revoke':
      return send('api_key.revoke', { key_id: one(parse(rest, []).positionals, 'KEY_ID') });
    case 'key reveal':
      return send('api_key.reveal', { key_id: one(parse(rest, []).positionals, 'KEY_ID') });
    case 'rate set': {
      const { positionals, values } = parse(rest, ['mode', 'currency', 'rate']);
      return send('rate.set', { merchant_id: one(positionals, 'MERCHANT_ID'), mode: mode(values), currency: required(values, 'currency'), rate: required(values, 'rate') });
    }
    case 'rate remove': {
      const { positionals, values } = parse(rest, ['mode', 'currency']);
      return send('rate.remove', { merchant_id: one(positionals, 'MERCHANT_ID'), mode: mode(values), currency: required(values, 'currency') });
    }
    case 'limits set': {
      const { positionals, values } = parse(rest, ['mode', 'account', 'create', 'refund']);
      const limits = { account: count(values, 'account'), create: count(values, 'create'), refund: count(values, 'refund') };
      return send('limits.set', {
        merchant_id: one(positionals, 'MERCHANT_ID'),
        mode: mode(values),
        ...Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)),
      });
    }
    case 'terminal set': {
      const { positionals, values } = parse(rest, ['mode', 'user', 'password'], ['inactive']);
      // Test mode always pays through the built-in sandbox terminal.
      if (mode(values) !== 'live') throw new UsageError('--mode must be live: test mode uses the built-in sandbox terminal');
      return send('terminal.set', {
        merchant_id: one(positionals, 'MERCHANT_ID'),
        mode: 'live',
        user: required(values, 'user'),
        password: required(values, 'password'),
        active: values['inactive'] === undefined,
      });
    }
    case 'terminal probe': {
      const { positionals, values } = parse(rest, ['merchant', 'order-number', 'order-id']);
      if (positionals.length > 0) throw new UsageError('terminal probe takes only options');
      const merchantId = required(values, 'merchant');
      const [number, id] = [values['order-number'], values['order-id']];
      if ((number === undefined) === (id === undefined)) throw new UsageError('give exactly one of --order-number and --order-id');
      if (number === '' || id === '') throw new UsageError(`--${number === '' ? 'order-number' : 'order-id'} must not be empty`);
      // An unknown merchant is told as such (not-found), before the adapter is asked for a terminal it would not have either.
      await send('merchant.get', { merchant_id: merchantId });
      return send('terminal.probe', { merchant_id: merchantId, ...(id !== undefined ? { order_id: id } : { order_number: number }) }, { timeoutMs: PROBE_TIMEOUT_MS });
    }
    case 'fees set': {
      const { positionals, values } = parse(rest, ['percent', 'fixed']);
      return send('fees.set', { merchant_id: one(positionals, 'MERCHANT_ID'), percent: required(values, 'percent'), fixed: required(values, 'fixed') });
    }
    case 'webhook set-url': {
      const { positionals, values } = parse(rest, ['mode', 'url']);
      return send('webhook_endpoint.set_url', { merchant_id: one(positionals, 'MERCHANT_ID'), mode: mode(values), url: required(values, 'url') });
    }
    case 'webhook rotate-secret': {
      const { positionals, values } = parse(rest, ['mode']);
      const rotated = await send('webhook_endpoint.rotate_secret', { merchant_id: one(positionals, 'MERCHANT_ID'), mode: mode(values) });
      return { webhook_secret: rotated.webhook_secret, previous_secret_expires_at: rotated.previous_secret_expires_at };
    }
    case 'webhook resend':
      return send('webhook.resend', { delivery_id: one(parse(rest, []).positionals, 'DELIVERY_ID') });
    case 'refund list-manual':
      parse(rest, []);
      return send('refund.list_manual', {});
    case 'refund resolve': {
      const { positionals, values } = parse(rest, ['as']);
      const as = required(values, 'as');
      if (as !== 'succeeded' && as !== 'failed') throw new UsageError('--as must be succeeded or failed');
      return send('refund.resolve', { refund_id: one(positionals, 'REFUND_ID'), as });
    }
    case 'secrets rewrap': {
      parse(rest, []);
      // One service after the other: each answers for its own data keys, and a failure names the service it stopped at.
      const counts: Record<string, unknown> = {};
      for (const [service, type] of Object.entries(SECRETS_REWRAP_COMMANDS)) counts[service] = await send(type, {});
      return counts;
    }
    case 'audit list': {
      const { positionals, values } = parse(rest, ['merchant', 'limit']);
      if (positionals.length > 0) throw new UsageError('audit list takes only options');
      const limit = values['limit'];
      if (limit !== undefined && !(/^[1-9]\d{0,2}$/.test(limit) && Number(limit) <= 500)) throw new UsageError('--limit must be a whole number from 1 to 500');
      return send('audit.list', {
        ...(values['merchant'] !== undefined && { merchant_id: values['merchant'] }),
        ...(limit !== undefined && { limit: Number(limit) }),
      });
    }
    case 'user create': {
      const { positionals, values } = parse(rest, ['email', 'role', 'password']);
      const created = await send('user.create', { merchant_id: one(positionals, 'MERCHANT_ID'), email: required(values, 'email'), role: role(values), ...password(values) }, { timeoutMs: PASSWORD_TIMEOUT_MS });
      return { user_id: created.user_id, ...(created.setup_url !== undefined && { setup_url: created.setup_url }) };
    }
    case 'operator create': {
      const { positionals, values } = parse(rest, ['email', 'password']);
      if (positionals.length > 0) throw new UsageError('operator create takes only options');
      const created = await send('operator.create', { email: required(values, 'email'), ...password(values) }, { timeoutMs: PASSWORD_TIMEOUT_MS });
      return { operator_id: created.operator_id, ...(created.setup_url !== undefined && { setup_url: created.setup_url }) };
    }
    case 'operator keygen': {
      if (parse(rest, []).positionals.length > 0) throw new UsageError('operator keygen takes nothing');
      // Made here, never sent anywhere: no broker needed.
      const { privateJwk, publicJwk } = await generateOperatorKey();
      return { kid: publicJwk.kid, private_jwk: privateJwk, public_jwk: publicJwk };
    }
    default:
      throw new UsageError(`unknown command: ${command.trim() || '(none)'}`);
  }
}
