/** The fields of a posted form or a query string, as strings: one way to read them for every page. */
import type { Request } from 'express';

/** A field as sent ('' when absent or not text): what a password or an email typed at sign-in is read as. */
export function rawFieldOf(source: unknown, name: string): string {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** A field, trimmed; '' when absent or not text. */
export function fieldOf(source: unknown, name: string): string {
  return rawFieldOf(source, name).trim();
}

/** A field's values, in order (a group of checkboxes gives several). */
export function valuesOf(source: unknown, name: string): string[] {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === 'string');
}

/** A field of the request's query string, trimmed; '' when absent. */
export function queryField(req: Request, name: string): string {
  return fieldOf(req.query, name);
}

/** The cursors a page of a list was asked with ('' when not given). */
export function cursorsOf(req: Request): { startingAfter: string; endingBefore: string } {
  return { startingAfter: queryField(req, 'starting_after'), endingBefore: queryField(req, 'ending_before') };
}

/**
 * A datetime-local field (no zone) as RFC 3339, in UTC as the form says;
 * anything else as given, for the owning service to accept or refuse.
 */
export function utcTime(value: string): string {
  const local = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?$/.exec(value);
  return local ? `${local[1]}${local[2] ?? ':00'}Z` : value;
}
