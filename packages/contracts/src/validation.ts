/**
 * One ajv instance for every schema of the system. Validators are compiled on
 * first use and cached, so a service pays only for the messages it handles.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import ajvFormatsModule from 'ajv-formats/dist/formats.js';
import type { TObject, TSchema } from '@sinclair/typebox';
import { commands, events, Envelope, type CommandType, type EventType } from './messages/index.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, coerceTypes: false, useDefaults: false });
addFormats(ajv);

type FormatCheck = { validate: (text: string) => boolean; compare: (a: string, b: string) => number | undefined };
const { fullFormats } = ajvFormatsModule as unknown as { fullFormats: Record<'date' | 'date-time', FormatCheck> };

/**
 * RFC 3339 dates and date-times that PostgreSQL also stores as written: year
 * 0000 and UTC offsets past ±15:59 are valid RFC 3339 but refused by the
 * database, and a filter or report date the database refuses must be a
 * validation problem (D6), not a 500.
 */
export function storableDateText(text: string): boolean {
  if (text.startsWith('0000')) return false;
  const offset = /([+-])(\d{2}):\d{2}$/.exec(text);
  return offset === null || Number(offset[2]) <= 15;
}
for (const name of ['date', 'date-time'] as const) {
  const rfc3339 = fullFormats[name];
  ajv.addFormat(name, { type: 'string', validate: (text: string) => rfc3339.validate(text) && storableDateText(text), compare: rfc3339.compare });
}

const cache = new WeakMap<TSchema, ValidateFunction>();

/** The compiled validator of `schema` (compiled once). */
export function validatorOf<T = unknown>(schema: TSchema): ValidateFunction<T> {
  let fn = cache.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    cache.set(schema, fn);
  }
  return fn as ValidateFunction<T>;
}

export class ContractViolation extends Error {
  constructor(
    readonly what: string,
    readonly errors: readonly ErrorObject[],
  ) {
    super(`${what} does not match its contract: ${errors.map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ')}`);
    this.name = 'ContractViolation';
  }
}

function check(schema: TSchema, value: unknown, what: string): void {
  const validate = validatorOf(schema);
  if (!validate(value)) throw new ContractViolation(what, validate.errors ?? []);
}

/** Throws ContractViolation unless `value` is a valid envelope. */
export function checkEnvelope(value: unknown): void {
  check(Envelope, value, 'message envelope');
}

export function isCommandType(type: string): type is CommandType {
  return Object.hasOwn(commands, type);
}

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(events, type);
}

/** Throws ContractViolation unless `data` is a valid request of command `type`. */
export function checkCommandRequest(type: CommandType, data: unknown): void {
  check(commands[type].request, data, `${type} request`);
}

/** Throws ContractViolation unless `body` is a valid successful reply of command `type`. */
export function checkCommandReply(type: CommandType, body: unknown): void {
  check(commands[type].reply, body, `${type} reply`);
}

/** Throws ContractViolation unless `data` is valid data of event `type`. */
export function checkEventData(type: EventType, data: unknown): void {
  check(events[type], data, `${type} event`);
}
export type { ErrorObject } from 'ajv';

/** D6: how deeply objects and arrays may nest in a request body, the body itself being level 1. */
const MAX_BODY_DEPTH = 32;

/**
 * The top-level fields of `body`, in its order, under which objects and
 * arrays nest deeper than MAX_BODY_DEPTH. The walk keeps a stack of its own
 * instead of recursing, so that a body nested thousands of levels is refused
 * here, before any recursive walk of it (a schema check, a hash, a copy,
 * JSON.stringify) could overflow the call stack.
 */
export function tooDeepFields(body: Readonly<Record<string, unknown>>, maxDepth = MAX_BODY_DEPTH): string[] {
  return Object.keys(body).filter((field) => nestsDeeperThan(body[field], maxDepth - 1));
}

/** Whether containers nest more than `levels` deep in `value` (`[]` is one level, a string none). */
function nestsDeeperThan(value: unknown, levels: number): boolean {
  const stack: [node: unknown, depth: number][] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > levels) return true;
    for (const child of Object.values(node)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** The error a field nested past MAX_BODY_DEPTH gets (D6). */
export function tooDeepError(field: string): SchemaFieldError {
  return { field, code: 'invalid', message: `${field} must not nest objects or arrays deeper than ${MAX_BODY_DEPTH} levels in the body.` };
}

/**
 * The path of the first own `__proto__` key in `value` (`metadata.__proto__`,
 * `items[0].__proto__`), or undefined. JSON.parse makes such a key an ordinary
 * property, but copying the object with Object.assign would rewrite a prototype.
 */
export function findProtoKey(value: unknown, path = ''): string | undefined {
  return firstPath(value, path, (key) => key === '__proto__');
}

/**
 * The path of the first key or text holding a NUL character: PostgreSQL text
 * cannot store one, so such input is refused at the door with its field named,
 * never sent on to fail as a database error.
 */
export function findNulCharacter(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path || 'body' : undefined;
  return firstPath(value, path, (key, child) => key.includes('\0') || (typeof child === 'string' && child.includes('\0')));
}

/** The path (`items[0].name`) of the first member, at any depth, for which `matches` holds. */
function firstPath(value: unknown, path: string, matches: (key: string, child: unknown) => boolean): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    const childPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (matches(key, child)) return childPath;
    const found = firstPath(child, childPath, matches);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A validation problem's entry (D6), as @gateway/problem's FieldError. */
export interface SchemaFieldError {
  field: string;
  code: string;
  message: string;
}

/**
 * One schema error as a validation problem's entry (D6): the field as a path
 * (`items[0].quantity`), a code, a sentence. `whole` names the input itself
 * (`body` for an API request, `form` for a page's form).
 */
function fieldErrorOf(error: ErrorObject, whole = 'body'): SchemaFieldError {
  if (error.keyword === 'required') {
    const field = joinPath(error.instancePath, whole, String(error.params['missingProperty']));
    return { field, code: 'required', message: `${field} is required.` };
  }
  if (error.keyword === 'additionalProperties') {
    const field = joinPath(error.instancePath, whole, String(error.params['additionalProperty']));
    return { field, code: 'invalid', message: `${field} is not a known field.` };
  }
  const field = joinPath(error.instancePath, whole);
  if (reportedField(field) === 'metadata') return { field: 'metadata', code: 'invalid', message: `metadata ${describeMetadata(error, field === 'metadata')}.` };
  return { field, code: 'invalid', message: `${field} ${describe(error)}.` };
}

/**
 * The field an error at `path` is reported on (D6): metadata's keys are the
 * merchant's own, so an error anywhere inside it names `metadata` itself;
 * items and other nested fields keep their paths (`items[0].quantity`).
 */
function reportedField(path: string): string {
  return path === 'metadata' || path.startsWith('metadata.') || path.startsWith('metadata[') ? 'metadata' : path;
}

/** D1: every request body is a JSON object. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The error a body that is not a JSON object gets (D1). */
export const NOT_A_JSON_OBJECT: SchemaFieldError = Object.freeze({ field: 'body', code: 'invalid', message: 'The request body must be a JSON object.' });

/** The error a `__proto__` key at `path` gets, wherever it is found: named by its path, inside metadata too (as the API has always answered). */
export function protoKeyError(path: string): SchemaFieldError {
  return { field: path, code: 'invalid', message: '__proto__ is not an allowed key.' };
}

/** D6's words for what is wrong with metadata (`atRoot`: the object itself, else one of its values). */
function describeMetadata(error: ErrorObject, atRoot: boolean): string {
  const limit = String(error.params['limit']);
  if (error.propertyName !== undefined || error.keyword === 'propertyNames') return `keys must be at most ${error.keyword === 'maxLength' ? limit : '40'} characters long`;
  if (atRoot && error.keyword === 'maxProperties') return `must have at most ${limit} keys`;
  if (atRoot) return 'must be an object of string values';
  if (error.keyword === 'maxLength') return `values must be at most ${limit} characters long`;
  return 'values must be strings';
}

/**
 * Schema errors as a validation problem's entries (D6): one per field, its
 * first error, in the order found; fields `skip` names are left out (they
 * have rules of their own). The one mapping from ajv errors to problems.
 */
export function fieldErrorsOf(errors: readonly ErrorObject[] | null | undefined, options: { skip?: (field: string) => boolean; whole?: string } = {}): SchemaFieldError[] {
  const byField = new Map<string, SchemaFieldError>();
  for (const error of errors ?? []) {
    const mapped = fieldErrorOf(error, options.whole);
    if (byField.has(mapped.field) || options.skip?.(mapped.field)) continue;
    byField.set(mapped.field, mapped);
  }
  return [...byField.values()];
}

function describe(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `must be of type ${String(p['type'])}`;
    case 'minLength':
      return `must be at least ${String(p['limit'])} characters long`;
    case 'maxLength':
      return `must be at most ${String(p['limit'])} characters long`;
    case 'minimum':
      return `must be at least ${String(p['limit'])}`;
    case 'maximum':
      return `must be at most ${String(p['limit'])}`;
    case 'format':
      return p['format'] === 'email' ? 'must be a valid email address' : `must be a valid ${String(p['format'])}`;
    case 'pattern':
      return 'has an invalid format';
    case 'enum':
      return `must be one of ${(p['allowedValues'] as unknown[]).map(String).join(', ')}`;
    case 'uniqueItems':
      return 'must not repeat an item';
    default:
      return 'is invalid';
  }
}

/** The paging parameters of every list: parseListQuery (@gateway/problem) checks them, with the words every list uses. */
const PAGING_PARAMETERS: ReadonlySet<string> = new Set(['limit', 'starting_after', 'ending_before']);

/**
 * A list query's filters checked by their contract (D6): one entry per
 * field, a filter with fixed values naming them; the paging parameters are
 * left out (see PAGING_PARAMETERS).
 */
export function listFilterErrors(schema: TObject, query: Record<string, unknown>): SchemaFieldError[] {
  const validate = validatorOf(schema);
  if (validate(query)) return [];
  return fieldErrorsOf(validate.errors, { skip: (field) => PAGING_PARAMETERS.has(field) }).map((error) => {
    const allowed = literalsOf(schema.properties[error.field]);
    return allowed && error.code === 'invalid' ? { ...error, message: `${error.field} must be one of ${allowed.join(', ')}.` } : error;
  });
}

/** The values a union of literals allows; undefined for any other schema. */
function literalsOf(schema: TSchema | undefined): string[] | undefined {
  const members = (schema as { anyOf?: { const?: unknown }[] } | undefined)?.anyOf;
  if (!members?.every((member) => member.const !== undefined)) return undefined;
  return members.map((member) => String(member.const));
}

/** `/items/0/quantity` → `items[0].quantity`; `whole` for the input itself. */
function joinPath(instancePath: string, whole: string, leaf?: string): string {
  const segments = instancePath.split('/').filter(Boolean);
  if (leaf !== undefined) segments.push(leaf);
  let path = '';
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) path += `[${segment}]`;
    else path += path ? `.${segment}` : segment;
  }
  return path || whole;
}

/**
 * D6: a URL a buyer is sent to (return_url, cancel_url) is absolute http(s),
 * and https in live mode, without user information (D29); the entry for
 * `field` when `value` is not.
 */
export function redirectUrlError(field: string, value: string, livemode: boolean): SchemaFieldError | undefined {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    parsed = new URL('about:blank');
  }
  const allowed = livemode ? parsed.protocol === 'https:' : parsed.protocol === 'http:' || parsed.protocol === 'https:';
  if (!allowed) return { field, code: 'invalid', message: livemode ? `${field} must be an absolute https URL in live mode.` : `${field} must be an absolute http or https URL.` };
  // A user and password would be shown to every buyer sent there, and `https://shop.example@evil.example/` reads as the shop's.
  if (parsed.username !== '' || parsed.password !== '') return { field, code: 'invalid', message: `${field} must not contain a username or password.` };
  return undefined;
}

/** D6: errors ordered by the fields the request gave, in its order; then the ones it omitted, in `schemaOrder`. */
export function inRequestOrder<E extends SchemaFieldError>(errors: readonly E[], input: Record<string, unknown>, schemaOrder: readonly string[]): E[] {
  const given = Object.keys(input);
  const rank = (field: string) => {
    const top = field.split(/[.[]/)[0] ?? field;
    const index = given.indexOf(top);
    return index >= 0 ? index : given.length + schemaOrder.indexOf(top);
  };
  return errors
    .map((error, seen) => ({ error, seen }))
    .sort((a, b) => rank(a.error.field) - rank(b.error.field) || a.seen - b.seen)
    .map(({ error }) => error);
}
