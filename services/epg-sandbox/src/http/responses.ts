/** Answers that are not the protocol's own: unknown paths, wrong methods, failures. */
import type { Response } from 'express';

/** 404, plain text, as a servlet container answers: nothing for a client to read an errorCode from. */
export function notFound(res: Response): void {
  res.status(404).type('text/plain').send('Not Found');
}

/** 405 with the methods the path allows. */
export function methodNotAllowed(res: Response, allow: string): void {
  res.status(405).setHeader('Allow', allow);
  res.type('text/plain').send('Method Not Allowed');
}
