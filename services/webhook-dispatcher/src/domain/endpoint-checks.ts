/**
 * Checks of a request about a managed endpoint: its body against the
 * contract, every bad field at once (D6), a URL also against the address
 * rule (D11); and the endpoint it names, one of the caller's or 404.
 */
import { fieldErrorsOf, isJsonObject, NOT_A_JSON_OBJECT, validatorOf, type ApiContext } from '@gateway/contracts';
import { AppError, validationError, type FieldError } from '@gateway/problem';
import type { EndpointDeps } from './deps.js';
import { checkWebhookUrl } from './webhook-url.js';

/** The problem answered for an endpoint that is not one of the caller's. */
export const notFound = (id: string) => new AppError('not-found', `There is no webhook endpoint ${id} in this account and mode.`);

/** `value`, the caller's endpoint `id`; 404 when there is none. */
export function found<T>(value: T | undefined, id: string): T {
  if (value === undefined) throw notFound(id);
  return value;
}

/** The body as `validate`'s schema has it, or a validation problem with one entry per bad field (D6). */
export function checkBody<T>(validate: ReturnType<typeof validatorOf<T>>, body: unknown): T {
  const errors = schemaErrors(validate, body);
  if (errors.length > 0) throw validationError(errors);
  return body as T;
}

/** As checkBody, with a url the schema accepts put to the address rule (D11) too, every bad field reported at once. */
export async function checkEndpointBody<T extends { url?: string }>(deps: EndpointDeps, context: ApiContext, validate: ReturnType<typeof validatorOf<T>>, body: unknown): Promise<T> {
  const errors = schemaErrors(validate, body);
  const url = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['url'] : undefined;
  if (typeof url === 'string' && !errors.some((e) => e.field === 'url')) {
    try {
      await checkWebhookUrl(url, { livemode: context.livemode, allowPrivate: deps.allowPrivate });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      errors.push(...err.errors);
    }
  }
  if (errors.length > 0) throw validationError(errors);
  return body as T;
}

function schemaErrors(validate: ReturnType<typeof validatorOf>, body: unknown): FieldError[] {
  if (!isJsonObject(body)) return [NOT_A_JSON_OBJECT];
  return validate(body) ? [] : fieldErrorsOf(validate.errors);
}
