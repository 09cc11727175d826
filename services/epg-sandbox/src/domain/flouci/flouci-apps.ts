/** The first check of every Flouci call: `Authorization: Bearer <PUBLIC_KEY>:<PRIVATE_KEY>` of an application the sandbox knows. */
import type { FlouciApps } from '../../config.js';
import { sameSecret } from '../terminals.js';

/** The scheme, then PUBLIC_KEY (no colon) and PRIVATE_KEY (which may hold colons), split at the first colon. */
const BEARER = /^Bearer +([^\s:]+):(\S+)$/i;

/**
 * The PUBLIC_KEY of the application this Authorization header opens, or
 * undefined when it is missing, malformed or wrong. Private keys are compared
 * by digest in constant time.
 */
export function authenticateApp(apps: FlouciApps, authorization: string | undefined): string | undefined {
  const match = BEARER.exec(authorization?.trim() ?? '');
  const publicKey = match?.[1];
  const privateKey = match?.[2];
  if (publicKey === undefined || privateKey === undefined) return undefined;
  return sameSecret(privateKey, apps.get(publicKey)) ? publicKey : undefined;
}
