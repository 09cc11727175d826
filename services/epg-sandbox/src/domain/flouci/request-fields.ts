/**
 * The fields of a Flouci call's JSON body, checked as WALLET.md has them:
 * amounts are integers or integer strings of millimes, links absolute http(s)
 * URLs, flags JSON booleans. Each reader refuses a bad value with a
 * FlouciError naming the field.
 */
import { parseMillimes } from '../amount.js';
import { isWebUrl } from '../urls.js';
import { invalidField } from './flouci-error.js';
import type { JsonBody } from './wallet.js';

/** Longest link the sandbox keeps: a browser's practical limit. */
const MAX_URL_LENGTH = 2048;
/** Longest developer_tracking_id the sandbox keeps; Flouci does not say, and ours is a UUID. */
const MAX_TRACKING_ID_LENGTH = 255;

/** A positive integer of millimes (up to 999 999.999 TND), given as a JSON integer or a string of digits. */
export function millimes(body: JsonBody, name: string): number {
  const value = body[name];
  const amount = typeof value === 'number' || typeof value === 'string' ? parseMillimes(String(value)) : undefined;
  if (amount === undefined) throw invalidField(name, 'must be a positive integer of millimes');
  return amount;
}

/** As millimes, but absent is undefined. */
export function optionalMillimes(body: JsonBody, name: string): number | undefined {
  return body[name] === undefined ? undefined : millimes(body, name);
}

/** A positive whole number of seconds, up to `max`, as a JSON integer or a string of digits; absent is `fallback`. */
export function positiveSeconds(body: JsonBody, name: string, fallback: number, max: number): number {
  const value = body[name];
  if (value === undefined) return fallback;
  const seconds = typeof value === 'number' ? value : typeof value === 'string' && /^[0-9]{1,10}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > max) throw invalidField(name, `must be a positive integer of at most ${max}`);
  return seconds;
}

/** A non-empty string. */
export function trackingId(body: JsonBody, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value.trim() === '') throw invalidField(name, 'is required');
  if (value.length > MAX_TRACKING_ID_LENGTH) throw invalidField(name, `must be at most ${MAX_TRACKING_ID_LENGTH} characters`);
  return value;
}

/** An absolute http(s) URL with a host. */
export function webUrl(body: JsonBody, name: string): string {
  const value = body[name];
  if (value === undefined) throw invalidField(name, 'is required');
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH || !isWebUrl(value)) throw invalidField(name, 'must be an absolute http(s) URL');
  return value;
}

/** As webUrl, but absent is undefined. */
export function optionalWebUrl(body: JsonBody, name: string): string | undefined {
  return body[name] === undefined ? undefined : webUrl(body, name);
}

/** A JSON boolean; absent is false. */
export function flag(body: JsonBody, name: string): boolean {
  const value = body[name];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw invalidField(name, 'must be a boolean');
  return value;
}
