/**
 * The challenge result (cres) an ACS has the browser post back (EMV 3-D
 * Secure, browser flow: base64url-encoded JSON). The adapter never takes an
 * outcome from it, which the acquirer's status alone tells; it reads only
 * which transaction it names, so that a result for another payment is
 * turned away before it can finish this one.
 */

/** The threeDSServerTransID a cres names; undefined when it cannot be read (the acquirer then judges it). */
export function transactionOfCres(cres: string): string | undefined {
  let message: unknown;
  try {
    message = JSON.parse(Buffer.from(cres, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null) return undefined;
  const transId = (message as Record<string, unknown>)['threeDSServerTransID'];
  return typeof transId === 'string' && transId.length > 0 && transId.length <= 64 ? transId : undefined;
}
