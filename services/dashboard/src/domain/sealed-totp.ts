/**
 * A person's TOTP secret at rest: sealed by the service's SecretBox with the
 * person's id as its AAD, so that a ciphertext moved to another person does
 * not open.
 */
import type { SecretBox } from '@gateway/secrets';

function aadOf(personId: string): string {
  return `dashboard.people.totp:${personId}`;
}

/** `secret` sealed for the person `personId`. */
export function sealTotp(secrets: SecretBox, personId: string, secret: string): string {
  return secrets.encrypt(secret, aadOf(personId));
}

/** The TOTP secret sealed for the person `personId`. */
export async function openTotp(secrets: SecretBox, personId: string, ciphertext: string): Promise<string> {
  return secrets.decrypt(ciphertext, aadOf(personId));
}
