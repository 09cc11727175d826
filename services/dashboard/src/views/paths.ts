/** Where each door's pages are: the merchant dashboard (D14) and the operations console (D15). */
export const BASE = '/dashboard';
export const OPS = '/ops';

/** The door a path is under, for the pages a request becomes when nothing else answered it. */
export function baseOf(path: string): string {
  return path.startsWith('/ops') ? OPS : BASE;
}
