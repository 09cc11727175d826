/**
 * Reading an application/x-www-form-urlencoded request body on node:http,
 * within limits, as the routes served without express need it.
 */
import type { IncomingMessage } from 'node:http';

/** A field's value, or its values when the form gives it more than once. */
export type FormFieldsRecord = Record<string, string | string[]>;

/** Why a body was refused: too large or too many fields (413), or a charset other than UTF-8 (415). */
export class FormRefused extends Error {
  constructor(
    readonly status: 413 | 415,
    readonly reason: 'entity.too.large' | 'parameters.too.many' | 'charset.unsupported',
  ) {
    super(reason);
    this.name = 'FormRefused';
  }
}

export interface FormLimits {
  maxBytes: number;
  maxFields: number;
}

/**
 * The request's form fields; undefined when the body is not a form at all
 * (another content type). A body larger than `maxBytes` is refused as soon as
 * that is known, from its Content-Length or as it arrives, and what is left
 * of it is discarded unread. Fields are held on an object with no prototype,
 * so a field named `__proto__` or `constructor` is a field like any other.
 */
export function readForm(req: IncomingMessage, limits: FormLimits): Promise<FormFieldsRecord | undefined> {
  const [type = '', ...parameters] = (req.headers['content-type'] ?? '').toLowerCase().split(';');
  const isForm = type.trim() === 'application/x-www-form-urlencoded';
  const charset = parameters
    .map((parameter) => parameter.trim())
    .find((parameter) => parameter.startsWith('charset='))
    ?.slice('charset='.length)
    .replaceAll('"', '');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const tooLarge = () => {
      req.removeAllListeners('data');
      req.removeAllListeners('end');
      req.resume();
      reject(new FormRefused(413, 'entity.too.large'));
    };
    if (Number(req.headers['content-length'] ?? 0) > limits.maxBytes) return tooLarge();
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) return tooLarge();
      chunks.push(chunk);
    });
    req.once('error', reject);
    req.once('end', () => {
      if (!isForm) return resolve(undefined);
      if (charset !== undefined && charset !== 'utf-8') return reject(new FormRefused(415, 'charset.unsupported'));
      const fields: FormFieldsRecord = Object.create(null) as FormFieldsRecord;
      let count = 0;
      for (const [key, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) {
        count += 1;
        if (count > limits.maxFields) return reject(new FormRefused(413, 'parameters.too.many'));
        const seen = fields[key];
        fields[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
      }
      resolve(fields);
    });
  });
}
