/**
 * Who may command (D17), on the receiving side: every operator command a
 * service takes is checked before any handler runs (signature, key, lifetime,
 * command and digest, and that its id was never used), and every one it runs
 * is recorded for the audit log, through the service's outbox, as
 * `audit.recorded`; the api-gateway keeps the log.
 */
import { commands, CONSOLE_COMMANDS, MERCHANT_USER_COMMANDS, newId, type AuditEntry, type CommandType, type Envelope, type ServiceName } from '@gateway/contracts';
import type { Pool } from '@gateway/db';
import type { Logger } from '@gateway/observability';
import { AppError, type WireProblem } from '@gateway/problem';
import { operatorCommandsRefused } from './metrics.js';
import { OperatorSignatureError, OperatorSignatureVerifier, type OperatorPublicJwk, type VerifiedOperator } from './operator-signature.js';
import { enqueue } from './outbox.js';

/** Field names whose values never reach the audit log, whatever the contract says of them. */
const SECRET_NAMES = /password|secret|token|private|passphrase/i;
const REDACTED = '[redacted]';

/** What an operator action was on, within its merchant, in the order looked for in its data, then its reply. */
const TARGET_FIELDS = ['key_id', 'refund_id', 'delivery_id', 'endpoint_id'] as const;

interface OperatorGuardOptions {
  service: ServiceName;
  /** The operators' public keys, and the doors' (OPERATOR_PUBLIC_KEYS). */
  publicKeys: readonly OperatorPublicJwk[];
  /** The service's pool: its replay table and its outbox. */
  pool: Pool;
  log: Logger;
  /** Called once an audit record is committed to the outbox (to wake the relay). */
  afterCommit?: () => void;
}

export class OperatorGuard {
  private readonly verifier: OperatorSignatureVerifier;

  constructor(private readonly options: OperatorGuardOptions) {
    this.verifier = new OperatorSignatureVerifier(options.publicKeys);
  }

  /**
   * The operator who signed `envelope`, its id now used up; otherwise an
   * `operator-unauthorized` AppError, counted and logged (never the token or
   * the data). The id is spent before the command runs, so a command is run
   * at most once even when the broker delivers it again.
   */
  async admit(envelope: Envelope, token: string | undefined): Promise<VerifiedOperator> {
    try {
      const operator = await this.verifier.verify(envelope, token);
      if (!(await this.spend(envelope.id, operator.expiresAt))) {
        throw new OperatorSignatureError('replayed', 'this signed command was already used', operator.keyId);
      }
      return operator;
    } catch (err) {
      if (!(err instanceof OperatorSignatureError)) throw err;
      operatorCommandsRefused.inc({ command: envelope.type, reason: err.reason });
      this.options.log.warn(
        { command: envelope.type, message_id: envelope.id, correlation_id: envelope.correlation_id, reason: err.reason, kid: err.keyId },
        'operator command refused',
      );
      throw new AppError('operator-unauthorized', `Operator command refused: ${err.message}.`, { reason: err.reason });
    }
  }

  /**
   * Whether `token` is a valid operator signature of `envelope`, checked
   * without using up its id, counting or logging: for telling an operator why
   * a command was refused before its signature mattered.
   */
  async signedByOperator(envelope: Envelope, token: string | undefined): Promise<boolean> {
    try {
      await this.verifier.verify(envelope, token);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Holds a command a door signed for a merchant's user (D14) to that user's
   * reach: only the merchant commands, and only naming the user's own
   * merchant; the handler then checks that what else it names is that
   * merchant's. One a door signed for a console operator (D15) is held to what
   * the console does. Throws `forbidden` otherwise.
   */
  checkReach(envelope: Envelope, operator: VerifiedOperator): void {
    const merchantId = operator.actor?.merchantId;
    if (merchantId === undefined) {
      if (operator.door !== undefined && !(CONSOLE_COMMANDS as readonly string[]).includes(envelope.type)) {
        throw new AppError('forbidden', 'This action takes an operator\'s own key (gateway-admin).');
      }
      return;
    }
    if (!(MERCHANT_USER_COMMANDS as readonly string[]).includes(envelope.type)) throw new AppError('forbidden', 'This action is for operators only.');
    if (asRecord(envelope.data)['merchant_id'] !== merchantId) throw new AppError('forbidden', "A merchant's user may act only on their own merchant.");
  }

  /**
   * Records `envelope`, run for `operator`, in the audit log; `merchantId` is
   * the handler's word for a command that does not name its merchant. The entry is
   * written after the command's own transaction: were the process to die
   * between the two, the operator, who got no answer either, would see the
   * command time out.
   */
  async record(envelope: Envelope, operator: VerifiedOperator, outcome: { ok: true; body: unknown } | { ok: false; problem: WireProblem }, merchantId?: string): Promise<void> {
    const type = envelope.type as CommandType;
    const data = asRecord(envelope.data);
    const reply = outcome.ok ? asRecord(outcome.body) : {};
    const at = new Date().toISOString();
    const entry: AuditEntry = {
      audit_id: newId('evt'),
      actor_type: operator.actor?.type ?? 'operator',
      actor_id: operator.actor?.id ?? operator.id,
      actor_email: operator.actor?.email || null,
      address: operator.actor?.address || null,
      actor_key_id: operator.keyId,
      action: type,
      merchant_id: idOf(data['merchant_id'] ?? reply['merchant_id'] ?? merchantId),
      target: TARGET_FIELDS.map((field) => idOf(data[field] ?? reply[field])).find((id) => id !== null) ?? null,
      outcome: outcome.ok ? 'succeeded' : outcome.problem.code,
      detail: redacted(data, commands[type].request as Schema),
      service: this.options.service,
      correlation_id: envelope.correlation_id,
      at,
    };
    try {
      await enqueue(this.options.pool, [{ id: entry.audit_id, type: 'audit.recorded', version: 1, occurred_at: at, correlation_id: envelope.correlation_id, data: entry }]);
      this.options.afterCommit?.();
    } catch (err) {
      // The command has run and its caller is owed the answer; the lost entry must at least be seen.
      this.options.log.error({ err: (err as Error).message, command: type, message_id: envelope.id, operator: operator.id }, 'audit record could not be written');
    }
  }

  /** True when `jti` was not yet used; spent ids are pruned in the same statement once their token has expired. */
  private async spend(jti: string, expiresAt: Date): Promise<boolean> {
    const { rowCount } = await this.options.pool.query(
      `WITH pruned AS (DELETE FROM operator_command_ids WHERE expires_at < now())
       INSERT INTO operator_command_ids (jti, expires_at) VALUES ($1, $2) ON CONFLICT (jti) DO NOTHING`,
      [jti, expiresAt],
    );
    return rowCount === 1;
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function idOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * `data` without its secrets: a field its contract marks `writeOnly` (a
 * terminal password) or whose name says secret is replaced, at any depth.
 */
function redacted(data: Record<string, unknown>, schema: Schema | undefined): Record<string, unknown> {
  return redactValue(data, schema) as Record<string, unknown>;
}

/** What redaction reads of a JSON Schema. */
interface Schema {
  properties?: Record<string, Schema | undefined>;
  items?: Schema;
  writeOnly?: boolean;
}

function redactValue(value: unknown, schema: Schema | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => redactValue(item, schema?.items));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => {
      const childSchema = schema?.properties?.[key];
      return [key, SECRET_NAMES.test(key) || childSchema?.writeOnly === true ? REDACTED : redactValue(child, childSchema)];
    }),
  );
}
