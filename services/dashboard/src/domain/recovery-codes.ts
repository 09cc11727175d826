/** Recovery codes: what signs a person in when the phone with their authenticator app is not at hand. */
import { randomBytes } from 'node:crypto';

/** The shape of a recovery code, `xxxx-xxxx-xxxx`, as typed (lower case). */
export const RECOVERY_CODE = /^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/;

/** Ten recovery codes, shown once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: 10 }, () => {
    const raw = randomBytes(9).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, 'x');
    return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}`;
  });
}
