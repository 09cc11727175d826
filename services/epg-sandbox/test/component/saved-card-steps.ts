/** Steps of the saved-card tests: a card paid and saved for a client (3-D Secure passed when the card asks for it), and a client's saved cards. */
import assert from 'node:assert/strict';
import { answerChallenge, postForm } from './acs-browser.js';
import { orderNumber, RETURN_URL, type Body, type Harness } from './sandbox-harness.js';

export interface SavedCard {
  readonly clientId: string;
  readonly bindingId: string;
  /** The order that saved it. */
  readonly orderId: string;
  /** That order's status once paid. */
  readonly status: Body;
}

export interface ListedBinding {
  readonly bindingId: string;
  readonly maskedPan: string;
  readonly expiryDate: string;
  readonly clientId: string;
}

/**
 * Registers an order of `clientId` with FORCE_CREATE_BINDING (register.do, or
 * registerPreAuth.do), pays it with `pan` (`fields` override the card's), passes
 * any 3-D Secure challenge, and reads the binding the paid order names.
 */
export async function saveCard(sandbox: Harness, pan: string, clientId: string, fields: Record<string, string> = {}, call = 'register.do'): Promise<SavedCard> {
  const registered = await sandbox.call(call, { orderNumber: orderNumber(), amount: '125500', returnUrl: RETURN_URL, clientId, features: 'FORCE_CREATE_BINDING' });
  const orderId = String(registered.body['orderId']);
  let answer = (await sandbox.pay(orderId, pan, fields)).body;
  if (answer['is3DSVer2'] === true && answer['packedCReq'] === undefined) {
    answer = (await sandbox.pay(orderId, pan, { ...fields, threeDSServerTransId: String(answer['threeDSServerTransId']) })).body;
  }
  if (answer['paReq'] !== undefined) {
    const page = await postForm(`${sandbox.baseUrl}/acs`, { PaReq: String(answer['paReq']), MD: orderId, TermUrl: 'https://merchant.example.tn/3ds' });
    const paRes = (await answerChallenge(sandbox.baseUrl, page.text, 'Y')).fields['PaRes'] ?? '';
    await sandbox.call('finish3dsPayment.do', { mdOrder: orderId, paRes });
  } else if (answer['packedCReq'] !== undefined) {
    const page = await postForm(`${sandbox.baseUrl}/acs`, { creq: String(answer['packedCReq']) });
    await answerChallenge(sandbox.baseUrl, page.text, 'Y');
    await sandbox.call('finish3dsVer2Payment.do', { mdOrder: orderId, threeDSServerTransId: String(answer['threeDSServerTransId']) });
  }
  const status = await sandbox.status(orderId);
  assert.ok(status.bindingInfo, `the payment of ${pan.slice(-4)} saved no card (orderStatus ${String(status.orderStatus)})`);
  assert.equal(status.bindingInfo.clientId, clientId);
  return { clientId, bindingId: status.bindingInfo.bindingId, orderId, status };
}

/** getBindings.do's list for the client, which must answer "0". */
export async function savedCards(sandbox: Harness, clientId: string, showExpired?: 'true' | 'false'): Promise<ListedBinding[]> {
  const reply = await sandbox.call('getBindings.do', { clientId, ...(showExpired !== undefined && { showExpired }) });
  assert.equal(reply.body.errorCode, '0', JSON.stringify(reply.body));
  return reply.body['bindings'] as ListedBinding[];
}
