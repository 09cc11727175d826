/**
 * The logo form's body (D20): multipart/form-data, read with busboy within
 * tight limits, its file kept aside for the route, its fields the body.
 */
import type { NextFunction, Request, Response } from 'express';
import busboy from 'busboy';
import { BRAND_LOGO_MAX_BYTES } from '@gateway/contracts';

/** The upload form's limits: one file, read up to one byte past the largest logo (so a larger one is known as such), a few small fields. */
const UPLOAD_LIMITS = { files: 1, fileSize: BRAND_LOGO_MAX_BYTES + 1, fields: 5, fieldSize: 1024, parts: 6 } as const;

/** The logo a multipart form carried, as the upload parser leaves it. */
export interface Upload {
  contentType: string;
  bytes: Buffer;
  tooLarge: boolean;
}

const uploads = new WeakMap<Request, Upload>();

/** The logo the upload parser kept aside for `req`, if it carried one. */
export function uploadOf(req: Request): Upload | undefined {
  return uploads.get(req);
}

/**
 * Reads a multipart/form-data body (the logo form only): its fields become
 * the body (so the CSRF check reads `_csrf` as for any form), its file is
 * kept aside. Anything but multipart leaves the body empty: the CSRF check
 * then refuses it. A body that cannot be read is an upload without its file:
 * the page says so, as for any refused form.
 */
export function logoUpload(req: Request, _res: Response, next: NextFunction): void {
  if (!req.is('multipart/form-data')) {
    req.body = {};
    next();
    return;
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: UPLOAD_LIMITS, defParamCharset: 'utf8' });
  } catch {
    req.body = {};
    next();
    return;
  }
  const fields: Record<string, string> = {};
  let done = false;
  const finish = (failed: boolean) => {
    if (done) return;
    done = true;
    req.body = fields;
    if (failed) {
      req.unpipe(parser);
      req.resume();
      uploads.delete(req);
    }
    next();
  };
  parser.on('field', (name, value) => {
    fields[name] = value;
  });
  parser.on('file', (name, stream, info) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= UPLOAD_LIMITS.fileSize) chunks.push(chunk);
    });
    // A body cut short fails the file too: the form's own error says so; unheard, it would bring the process down.
    stream.on('error', () => finish(true));
    stream.on('end', () => {
      if (name !== 'logo') return;
      uploads.set(req, { contentType: logoType(info.mimeType, info.filename), bytes: Buffer.concat(chunks), tooLarge: (stream as unknown as { truncated?: boolean }).truncated === true || size > BRAND_LOGO_MAX_BYTES });
    });
  });
  parser.on('close', () => finish(false));
  parser.on('error', () => finish(true));
  req.pipe(parser);
}

/** The type a browser gave the file, or the one its name says when the browser gave none of ours: the checkout checks the bytes either way. */
function logoType(mimeType: string, filename: string | undefined): string {
  if (mimeType === 'image/png' || mimeType === 'image/svg+xml') return mimeType;
  const name = (filename ?? '').toLowerCase();
  if (name.endsWith('.png')) return 'image/png';
  if (name.endsWith('.svg')) return 'image/svg+xml';
  return mimeType;
}
