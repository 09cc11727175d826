/** Form fields (or query parameters) read as the protocol reads them. */
import { EpgError } from '../domain/epg-error.js';
import type { CallParams } from '../domain/sandbox.js';

/** The fields of a form or a simple query string, a field given more than once as an array of its values. */
export class FormFields implements CallParams {
  constructor(private readonly fields: Readonly<Record<string, unknown>>) {}

  /** The field's value; absent or empty is undefined; a field given twice is "5". */
  get(name: string): string | undefined {
    const value = Object.hasOwn(this.fields, name) ? this.fields[name] : undefined;
    if (Array.isArray(value)) throw new EpgError('5', `${name} is given more than once`);
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  /** Like get(), but never throws: for log lines. */
  peek(name: string): string | undefined {
    try {
      return this.get(name);
    } catch {
      return undefined;
    }
  }
}
