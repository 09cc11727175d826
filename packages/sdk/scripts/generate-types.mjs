#!/usr/bin/env node
// Writes src/generated/openapi.ts from the OpenAPI document the gateway serves
// (buildOpenApi of @gateway/contracts, the same schemas that validate requests),
// so the SDK's types cannot drift from the API. `--check` writes nothing and
// exits 1 when the checked-in file is not what the document gives today: a test
// runs it, so CI fails until someone runs `npm run gen:sdk`.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApi } from '@gateway/contracts';

const target = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name) => (identifier.test(name) ? name : JSON.stringify(name));
const refName = (ref) => ref.slice(ref.lastIndexOf('/') + 1);

function doc(description, indent) {
  return description ? `${indent}/** ${String(description).replace(/\*\//g, '*\\/')} */\n` : '';
}

/** The TypeScript type of a JSON Schema, as far as OpenAPI 3.1 and TypeBox use it. */
function typeOf(schema, indent = '') {
  if (schema === true || schema === undefined || Object.keys(schema).length === 0) return 'unknown';
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return openUnion(schema.enum.map((v) => JSON.stringify(v)), schema.enum.every((v) => typeof v === 'string'));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    // INTERFACE 9.3-9.4: new enum values may appear in v1, so a closed string union would break clients that compile against today's list.
    const allStrings = alternatives.every((a) => typeof a.const === 'string');
    return openUnion(alternatives.map((a) => typeOf(a, indent)), allStrings);
  }
  if (Array.isArray(schema.type)) return schema.type.map((t) => typeOf({ ...schema, type: t }, indent)).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${typeOf(schema.items, indent)}>`;
    case 'object':
      return objectType(schema, indent);
    default:
      return 'unknown';
  }
}

function openUnion(members, strings) {
  return strings ? [...members, '(string & {})'].join(' | ') : members.join(' | ');
}

function objectType(schema, indent) {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const extra = schema.patternProperties ? Object.values(schema.patternProperties)[0] : schema.additionalProperties;
  if (properties.length === 0) return `Record<string, ${extra && extra !== true ? typeOf(extra, indent) : 'unknown'}>`;
  const inner = `${indent}  `;
  const lines = properties.map(([name, property]) => `${doc(property.description, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, inner)};`);
  if (extra) lines.push(`${inner}[key: string]: unknown;`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function jsonSchemaOf(content) {
  return content?.['application/json']?.schema ?? content?.['application/problem+json']?.schema;
}

/** Renders the whole module for `document`. */
export function render(document) {
  const out = [
    '// Generated from the OpenAPI document (GET /api/v1/openapi.json) by packages/sdk/scripts/generate-types.mjs.',
    '// Do not edit: run `npm run gen:sdk` at the repository root.',
    '',
  ];
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    out.push(doc(schema.description, '') + `export type ${name} = ${typeOf(schema)};`, '');
  }
  const table = [];
  const shapes = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const parameters = operation.parameters ?? [];
      const pathParams = parameters.filter((p) => p.in === 'path');
      const query = parameters.filter((p) => p.in === 'query');
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))?.[1];
      // Not JSON: an endless event stream (gateway.events.stream()) or a CSV download (gateway.exports.download()).
      const stream = success?.content?.['text/event-stream'] !== undefined ? "'events'" : success?.content?.['text/csv'] !== undefined ? "'csv'" : 'false';
      const response = stream !== 'false' ? 'ReadableStream<Uint8Array>' : success?.content ? typeOf(jsonSchemaOf(success.content)) : 'void';
      // An optional body (capture's) may be left out: `| undefined` makes the client's `body` optional.
      const body = operation.requestBody ? `${typeOf(jsonSchemaOf(operation.requestBody.content))}${operation.requestBody.required ? '' : ' | undefined'}` : 'never';
      const fields = (list) => (list.length === 0 ? 'Record<string, never>' : `{ ${list.map((p) => `${key(p.name)}${p.required ? '' : '?'}: ${typeOf(p.schema)}`).join('; ')} }`);
      table.push(`  ${operation.operationId}: { method: '${method.toUpperCase()}', path: '${path}', pathParams: [${pathParams.map((p) => `'${p.name}'`).join(', ')}], query: [${query.map((p) => `'${p.name}'`).join(', ')}], stream: ${stream} },`);
      shapes.push(
        doc(operation.summary, '  ') +
          `  ${operation.operationId}: { pathParams: ${fields(pathParams)}; query: ${fields(query)}; body: ${body}; response: ${response} };`,
      );
    }
  }
  out.push('/** Every operation of the API: its method, path template and parameter names. */');
  out.push(`export const operations = {\n${table.join('\n')}\n} as const;`, '');
  out.push('/** Every operation\'s path parameters, query, request body and success body. */');
  out.push(`export interface Operations {\n${shapes.join('\n')}\n}`, '');
  out.push('export type OperationId = keyof Operations;', '');
  out.push("/** Every webhook event type the gateway sends today (the document's webhooks). */");
  out.push(`export const webhookEventTypes = [${Object.keys(document.webhooks ?? {}).map((type) => JSON.stringify(type)).join(', ')}] as const;`, '');
  out.push('/** An event type: one of webhookEventTypes, or one added later in v1 (INTERFACE 9.3), so keep a default branch. */');
  out.push('export type WebhookEventType = (typeof webhookEventTypes)[number] | (string & {});', '');
  return out.join('\n');
}

const expected = render(buildOpenApi('https://gateway.example/api/v1'));
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // A missing file is simply not current.
  }
  if (current !== expected) {
    console.error(`${target} is not current: run \`npm run gen:sdk\``);
    process.exit(1);
  }
} else {
  writeFileSync(target, expected);
}
