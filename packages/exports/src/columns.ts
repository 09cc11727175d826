/**
 * The columns of a CSV export (D21), derived from the JSON Schema of the list
 * item in @gateway/contracts, so a field added to the API is a column without
 * being written down twice: one column per field, in schema order, named as
 * in the JSON; a nested object of fixed shape flattened with dots
 * (`original.amount`); arrays and records (items, metadata) as their JSON text.
 */

/** The parts of a JSON Schema (as TypeBox builds them) the columns are read from. */
export interface JsonSchema {
  readonly [keyword: string]: unknown;
  readonly type?: unknown;
  readonly format?: unknown;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly patternProperties?: unknown;
  readonly anyOf?: readonly JsonSchema[];
}

/** One column: its header, where its value is in an item, and how the value becomes a cell. */
export interface Column {
  /** The header cell: the JSON field name, dotted below a nested object. */
  readonly name: string;
  readonly path: readonly string[];
  /** Whether the field is a date-time, written in UTC (D21). */
  readonly time: boolean;
}

/** The columns of items of `schema`, an object schema, in its property order. */
export function columnsOf(schema: JsonSchema): Column[] {
  if (!isFixedObject(schema)) throw new Error('An export item schema must be an object schema with properties.');
  return flatten(schema, []);
}

/**
 * The cell of `column` in `item` before any CSV quoting: empty for a missing
 * field or null, text as it is (a time in UTC ISO 8601), a boolean or number
 * as JSON writes it, an array or object as its JSON text.
 */
export function cellOf(column: Column, item: unknown): string {
  let value: unknown = item;
  for (const key of column.path) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return column.time ? utcTime(value) : value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A row's cells, in column order. */
export function rowOf(columns: readonly Column[], item: unknown): string[] {
  return columns.map((column) => cellOf(column, item));
}

function flatten(schema: JsonSchema, prefix: readonly string[]): Column[] {
  return Object.entries(schema.properties ?? {}).flatMap(([key, property]) => {
    const path = [...prefix, key];
    if (isFixedObject(property)) return flatten(property, path);
    return [{ name: path.join('.'), path, time: isDateTime(property) }];
  });
}

/** An object of named fields (flattened), as opposed to a record of any keys (`patternProperties`: metadata), kept whole. */
function isFixedObject(schema: JsonSchema): boolean {
  return schema.type === 'object' && schema.properties !== undefined && schema.patternProperties === undefined;
}

/** A date-time, or a date-time or null. */
function isDateTime(schema: JsonSchema): boolean {
  return schema.format === 'date-time' || (schema.anyOf ?? []).some((member) => member.format === 'date-time');
}

/**
 * A time in UTC ISO 8601 (D21). The lists already answer UTC with `Z`, kept
 * as they are (to the digit); a time with an offset is converted.
 */
function utcTime(value: string): string {
  if (value.endsWith('Z')) return value;
  const at = Date.parse(value);
  return Number.isNaN(at) ? value : new Date(at).toISOString();
}
