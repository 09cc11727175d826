/**
 * The 3-D Secure 2 messages the browser carries between the 3DS Method URL,
 * the ACS and the merchant (EMV 3-D Secure, browser flow): threeDSMethodData,
 * creq and cres, each base64url-encoded JSON. They are not signed (TLS
 * carries them): whatever they say, the outcome is what the sandbox recorded
 * at its ACS, never a field of a message the browser posted.
 */

const MESSAGE_VERSION = '2.2.0';
const TRANS_ID = /^[0-9a-f-]{36}$/;
/** Far above any message of ours; a larger one is not read. */
const MAX_PACKED = 4096;

/** threeDSMethodData, posted by the buyer's browser to the 3DS Method URL. */
export function packMethodData(serverTransId: string): string {
  return pack({ threeDSServerTransID: serverTransId });
}

/** The challenge request the browser posts to the ACS (paymentorder.do's packedCReq). */
export function packCReq(serverTransId: string, acsTransId: string): string {
  return pack({ threeDSServerTransID: serverTransId, acsTransID: acsTransId, messageType: 'CReq', messageVersion: MESSAGE_VERSION, challengeWindowSize: '05' });
}

/** The challenge result the ACS has the browser post to threeDSVer2FinishUrl. */
export function packCRes(serverTransId: string, acsTransId: string, transStatus: 'Y' | 'N'): string {
  return pack({ threeDSServerTransID: serverTransId, acsTransID: acsTransId, messageType: 'CRes', messageVersion: MESSAGE_VERSION, transStatus });
}

/** The 3-D Secure 2 transaction a message names, when it is one of the given type (threeDSMethodData has none); undefined otherwise. */
export function transactionOf(packed: string, messageType?: 'CReq' | 'CRes'): string | undefined {
  if (packed.length > MAX_PACKED) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(Buffer.from(packed, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null) return undefined;
  const fields = message as Record<string, unknown>;
  if (messageType !== undefined && fields['messageType'] !== messageType) return undefined;
  const transId = fields['threeDSServerTransID'];
  return typeof transId === 'string' && TRANS_ID.test(transId) ? transId : undefined;
}

function pack(message: Record<string, string>): string {
  return Buffer.from(JSON.stringify(message), 'utf8').toString('base64url');
}
