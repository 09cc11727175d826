/**
 * Saved cards (ACQUIRER.md "Saved cards (D24)"): register.do's clientId and
 * FORCE_CREATE_BINDING, the binding a paid order saves (bindingInfo),
 * getBindings.do, unBindCard.do, and paymentOrderBinding.do with the buyer
 * (3-D Secure included) and without. Charges by recurrentPayment.do:
 * recurrent-payment.test.ts.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { answerChallenge, postForm } from './acs-browser.js';
import { saveCard, savedCards, type SavedCard } from './saved-card-steps.js';
import { codeOf, OTHER_TERMINAL, orderNumber, RETURN_URL, startHarness, type Harness } from './sandbox-harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const YEAR = String(new Date().getUTCFullYear() + 3);
const IP = '197.15.2.40';

describe('epg-sandbox: saved cards', () => {
  let sandbox: Harness;

  before(async () => {
    sandbox = await startHarness();
  });
  after(async () => {
    await sandbox?.stop();
  });

  /** A registered order of the client, to be paid with one of its bindings. */
  async function clientOrder(clientId: string, call = 'register.do'): Promise<string> {
    const reply = await sandbox.call(call, { orderNumber: orderNumber(), amount: '125500', returnUrl: RETURN_URL, clientId });
    return String(reply.body['orderId']);
  }

  function payWithBinding(mdOrder: string, bindingId: string, fields: Record<string, string> = {}) {
    return sandbox.call('paymentOrderBinding.do', { mdOrder, bindingId, ip: IP, cvc: '737', ...fields });
  }

  describe('register.do and saving', () => {
    it('When register.do and registerPreAuth.do take a clientId and FORCE_CREATE_BINDING, then they answer orderId and formUrl as usual, and the order reads status 0 without bindingInfo', async () => {
      for (const call of ['register.do', 'registerPreAuth.do']) {
        const reply = await sandbox.call(call, { orderNumber: orderNumber(), amount: '1000', returnUrl: RETURN_URL, clientId: `cus_${randomUUID()}`, features: 'FORCE_CREATE_BINDING' });
        assert.deepEqual(Object.keys(reply.body), ['orderId', 'formUrl'], call);
        const status = await sandbox.status(String(reply.body['orderId']));
        assert.equal(status.orderStatus, 0);
        assert.equal(status.bindingInfo, undefined);
      }
    });

    it('When FORCE_CREATE_BINDING comes without clientId, then "4" and nothing is registered; a clientId over 255 characters or another feature, then "5"', async () => {
      for (const call of ['register.do', 'registerPreAuth.do']) {
        const number = orderNumber();
        const refused = await sandbox.call(call, { orderNumber: number, amount: '1000', returnUrl: RETURN_URL, features: 'FORCE_CREATE_BINDING' });
        assert.deepEqual(refused.body, { errorCode: '4', errorMessage: 'clientId is required' }, call);
        assert.equal(codeOf((await sandbox.call('getOrderStatusExtended.do', { orderNumber: number })).body), '6');
        const tooLong = await sandbox.register({ clientId: 'c'.repeat(256) });
        assert.deepEqual(tooLong.reply.body, { errorCode: '5', errorMessage: 'clientId is invalid' });
        const unknownFeature = await sandbox.register({ clientId: 'cus_1', features: 'FORCE_TDS' });
        assert.deepEqual(unknownFeature.reply.body, { errorCode: '5', errorMessage: 'features is invalid' });
      }
      const longest = await sandbox.register({ clientId: 'c'.repeat(255), features: 'FORCE_CREATE_BINDING' });
      assert.match(longest.orderId, UUID);
    });

    it('When an order registered with FORCE_CREATE_BINDING is paid, then its status carries bindingInfo, and getBindings.do lists the card masked with its expiry', async () => {
      const clientId = `cus_${randomUUID()}`;
      const saved = await saveCard(sandbox, '4242424242424242', clientId);
      assert.equal(saved.status.orderStatus, 2);
      assert.match(saved.bindingId, UUID);
      assert.deepEqual(saved.status.bindingInfo, { clientId, bindingId: saved.bindingId });
      const listed = await sandbox.call('getBindings.do', { clientId });
      assert.deepEqual(listed.body, { errorCode: '0', errorMessage: 'Success', bindings: [{ bindingId: saved.bindingId, maskedPan: '424242**4242', expiryDate: `${YEAR}12`, clientId }] });
    });

    it('When the same card is saved again for the client, then it is the same binding; for another client, with another expiry, or another card, a new one', async () => {
      const clientId = `cus_${randomUUID()}`;
      const first = await saveCard(sandbox, '4242424242424242', clientId);
      const again = await saveCard(sandbox, '4242424242424242', clientId, { TEXT: 'Another Name' });
      assert.equal(again.bindingId, first.bindingId);
      const others = [
        await saveCard(sandbox, '4242424242424242', `cus_${randomUUID()}`),
        await saveCard(sandbox, '4242424242424242', clientId, { YYYY: String(Number(YEAR) + 1) }),
        // Same first six and last four: the mask alike, the card not.
        await saveCard(sandbox, '4242420000004242', clientId),
      ];
      assert.equal(new Set([first.bindingId, ...others.map((saved) => saved.bindingId)]).size, 4);
      assert.deepEqual(
        (await savedCards(sandbox, clientId)).map((binding) => [binding.maskedPan, binding.expiryDate]),
        [
          ['424242**4242', `${YEAR}12`],
          ['424242**4242', `${Number(YEAR) + 1}12`],
          ['424242**4242', `${YEAR}12`],
        ],
      );
    });

    it('When a two-phase order registered with FORCE_CREATE_BINDING is held, then the card is saved', async () => {
      const saved = await saveCard(sandbox, '5555555555554444', `cus_${randomUUID()}`, {}, 'registerPreAuth.do');
      assert.equal(saved.status.orderStatus, 1);
      assert.match(saved.bindingId, UUID);
    });

    it('When a FORCE_CREATE_BINDING order is declined, or an order with a clientId alone is paid, then nothing is saved', async () => {
      const clientId = `cus_${randomUUID()}`;
      for (const pan of ['4000000000000002', '4000000000009995', '4000000000000119']) {
        const { orderId } = await sandbox.register({ clientId, features: 'FORCE_CREATE_BINDING' });
        await sandbox.pay(orderId, pan);
        const status = await sandbox.status(orderId);
        assert.equal(status.orderStatus, 6, pan);
        assert.equal(status.bindingInfo, undefined, pan);
      }
      const { orderId } = await sandbox.register({ clientId });
      await sandbox.pay(orderId, '4242424242424242');
      assert.equal((await sandbox.status(orderId)).bindingInfo, undefined);
      assert.deepEqual(await savedCards(sandbox, clientId), []);
    });

    it('When the 3-D Secure 1 card is saved, then only a passed challenge saves it', async () => {
      const clientId = `cus_${randomUUID()}`;
      for (const result of ['N', 'Y'] as const) {
        const { orderId } = await sandbox.register({ clientId, features: 'FORCE_CREATE_BINDING' });
        const challenge = await sandbox.pay(orderId, '4000000000003063');
        const page = await postForm(`${sandbox.baseUrl}/acs`, { PaReq: String(challenge.body['paReq']), MD: orderId, TermUrl: 'https://merchant.example.tn/3ds' });
        const paRes = (await answerChallenge(sandbox.baseUrl, page.text, result)).fields['PaRes'] ?? '';
        await sandbox.call('finish3dsPayment.do', { mdOrder: orderId, paRes });
        const status = await sandbox.status(orderId);
        assert.equal(status.orderStatus, result === 'Y' ? 2 : 6);
        assert.equal(status.bindingInfo === undefined, result === 'N');
      }
      assert.deepEqual((await savedCards(sandbox, clientId)).map((binding) => binding.maskedPan), ['400000**3063']);
    });
  });

  describe('getBindings.do and unBindCard.do', () => {
    it('When getBindings.do is asked for a client with no cards, then an empty list; without clientId, "4"; a bad showExpired, "5"', async () => {
      assert.deepEqual((await sandbox.call('getBindings.do', { clientId: `cus_${randomUUID()}` })).body, { errorCode: '0', errorMessage: 'Success', bindings: [] });
      assert.deepEqual((await sandbox.call('getBindings.do', {})).body, { errorCode: '4', errorMessage: 'clientId is required' });
      assert.equal(codeOf((await sandbox.call('getBindings.do', { clientId: 'cus_1', showExpired: 'yes' })).body), '5');
      assert.equal(codeOf((await sandbox.call('getBindings.do', { clientId: 'c'.repeat(256) })).body), '5');
    });

    it("When another terminal asks for the client's cards, then it sees none of this terminal's", async () => {
      const clientId = `cus_${randomUUID()}`;
      await saveCard(sandbox, '4242424242424242', clientId);
      assert.deepEqual((await sandbox.call('getBindings.do', { clientId }, OTHER_TERMINAL)).body['bindings'], []);
    });

    it('When a card is unbound, then "0", it leaves the list, a second unbind, an unknown or another terminal\'s binding answer "2", and it can never be charged again', async () => {
      const clientId = `cus_${randomUUID()}`;
      const saved = await saveCard(sandbox, '4242424242424242', clientId);
      assert.deepEqual((await sandbox.call('unBindCard.do', { bindingId: saved.bindingId }, OTHER_TERMINAL)).body, { errorCode: '2', errorMessage: 'Binding not found' });
      assert.deepEqual((await sandbox.call('unBindCard.do', { bindingId: saved.bindingId })).body, { errorCode: '0', errorMessage: 'Success' });
      assert.deepEqual(await savedCards(sandbox, clientId), []);
      assert.deepEqual((await sandbox.call('unBindCard.do', { bindingId: saved.bindingId })).body, { errorCode: '2', errorMessage: 'Binding is not active' });
      assert.equal(codeOf((await sandbox.call('unBindCard.do', { bindingId: randomUUID() })).body), '2');
      assert.equal(codeOf((await sandbox.call('unBindCard.do', {})).body), '4');

      const orderId = await clientOrder(clientId);
      assert.deepEqual((await payWithBinding(orderId, saved.bindingId)).body, { errorCode: '2', errorMessage: 'Binding is not active' });
      assert.equal((await sandbox.status(orderId)).orderStatus, 0);
      const charge = await sandbox.call('recurrentPayment.do', { orderNumber: orderNumber(), bindingId: saved.bindingId, amount: '1000', currency: '788', tii: 'U' });
      assert.deepEqual(charge.body, { errorCode: '2', errorMessage: 'Binding is not active' });

      // Saved again after unbinding: a new binding; the old one stays unbound.
      const resaved = await saveCard(sandbox, '4242424242424242', clientId);
      assert.notEqual(resaved.bindingId, saved.bindingId);
      assert.deepEqual((await savedCards(sandbox, clientId)).map((binding) => binding.bindingId), [resaved.bindingId]);
    });
  });

  describe('paymentOrderBinding.do', () => {
    let saved: SavedCard;

    before(async () => {
      saved = await saveCard(sandbox, '4242424242424242', `cus_${randomUUID()}`);
    });

    it("When the buyer pays a registered order of the card's client with the saved card, then the answer redirects to returnUrl and the order is deposited with the saved card and bindingInfo", async () => {
      const orderId = await clientOrder(saved.clientId);
      const paid = await payWithBinding(orderId, saved.bindingId, { tii: 'F' });
      assert.deepEqual(paid.body, { errorCode: '0', errorMessage: 'Success', info: 'Your order is proceeded, redirecting...', redirect: `${RETURN_URL}?orderId=${orderId}` });
      const status = await sandbox.status(orderId);
      assert.equal(status.orderStatus, 2);
      assert.equal(status.actionCode, 0);
      assert.deepEqual([status.cardAuthInfo?.maskedPan, status.cardAuthInfo?.expiration], ['424242**4242', `${YEAR}12`]);
      assert.equal(status['ip'], IP);
      assert.deepEqual(status.bindingInfo, { clientId: saved.clientId, bindingId: saved.bindingId });
      assert.equal(codeOf((await payWithBinding(orderId, saved.bindingId)).body), '7', 'paid once');
    });

    it('When a two-phase order is paid with the saved card, then the funds are held', async () => {
      const orderId = await clientOrder(saved.clientId, 'registerPreAuth.do');
      assert.equal(codeOf((await payWithBinding(orderId, saved.bindingId)).body), '0');
      assert.equal((await sandbox.status(orderId)).orderStatus, 1);
    });

    it('When ip or cvc is missing, then "4"; malformed, or tii unknown, then "5"; the binding unknown, "2"; the order unknown, "6"; and the order stays registered', async () => {
      const orderId = await clientOrder(saved.clientId);
      const cases: [Record<string, string>, string, string][] = [
        [{ ip: '' }, '4', 'ip is required'],
        [{ ip: 'not-an-address' }, '5', 'ip is invalid'],
        [{ cvc: '' }, '4', 'cvc is required'],
        [{ cvc: '12' }, '5', 'cvc is invalid'],
        [{ cvc: '1234' }, '5', 'cvc is invalid'],
        [{ cvc: '7a7' }, '5', 'cvc is invalid'],
        [{ tii: 'X' }, '5', 'tii is invalid'],
        [{ bindingId: randomUUID() }, '2', 'Binding not found'],
        [{ bindingId: '' }, '4', 'bindingId is required'],
        [{ mdOrder: randomUUID() }, '6', 'Order not found'],
      ];
      for (const [fields, code, message] of cases) {
        const res = await payWithBinding(orderId, saved.bindingId, fields);
        assert.deepEqual(res.body, { errorCode: code, errorMessage: message }, JSON.stringify(fields));
      }
      const status = await sandbox.status(orderId);
      assert.equal(status.orderStatus, 0);
      assert.equal(status.cardAuthInfo, undefined);
    });

    it("When the order belongs to another client or has none, then \"5\"; another terminal's binding or order is unknown: \"2\" or \"6\"", async () => {
      const otherClient = await clientOrder(`cus_${randomUUID()}`);
      assert.deepEqual((await payWithBinding(otherClient, saved.bindingId)).body, { errorCode: '5', errorMessage: 'bindingId is invalid' });
      const noClient = (await sandbox.register()).orderId;
      assert.equal(codeOf((await payWithBinding(noClient, saved.bindingId)).body), '5');

      const otherTerminalOrder = await sandbox.call('register.do', { orderNumber: orderNumber(), amount: '1000', returnUrl: RETURN_URL, clientId: saved.clientId }, OTHER_TERMINAL);
      const otherOrderId = String(otherTerminalOrder.body['orderId']);
      const fromOther = await sandbox.call('paymentOrderBinding.do', { mdOrder: otherOrderId, bindingId: saved.bindingId, ip: IP, cvc: '737' }, OTHER_TERMINAL);
      assert.deepEqual(fromOther.body, { errorCode: '2', errorMessage: 'Binding not found' });
      assert.equal(codeOf((await payWithBinding(otherOrderId, saved.bindingId)).body), '6');
      assert.equal((await sandbox.status(otherOrderId, OTHER_TERMINAL)).orderStatus, 0);
      for (const orderId of [otherClient, noClient]) assert.equal((await sandbox.status(orderId)).orderStatus, 0);
    });

    it('When the saved 3-D Secure 1 card pays on the page, then the answer is acsUrl, paReq and termUrl, and the challenge is finished with finish3dsPayment.do as a card payment\'s', async () => {
      const card = await saveCard(sandbox, '4000000000003063', `cus_${randomUUID()}`);
      const orderId = await clientOrder(card.clientId);
      const challenge = await payWithBinding(orderId, card.bindingId);
      assert.deepEqual(Object.keys(challenge.body), ['errorCode', 'errorMessage', 'acsUrl', 'paReq', 'termUrl']);
      assert.equal((await sandbox.status(orderId)).orderStatus, 5);
      const page = await postForm(`${sandbox.baseUrl}/acs`, { PaReq: String(challenge.body['paReq']), MD: orderId, TermUrl: 'https://merchant.example.tn/3ds' });
      assert.ok(page.text.includes('400000**3063'));
      const paRes = (await answerChallenge(sandbox.baseUrl, page.text, 'Y')).fields['PaRes'] ?? '';
      const finished = await sandbox.call('finish3dsPayment.do', { mdOrder: orderId, paRes });
      assert.deepEqual(finished.body, { errorCode: '0', errorMessage: 'Success', redirect: `${RETURN_URL}?orderId=${orderId}` });
      const status = await sandbox.status(orderId);
      assert.deepEqual([status.orderStatus, status.cardAuthInfo?.secureAuthInfo?.eci], [2, '05']);
    });

    it('When the saved 3-D Secure 2 card pays on the page, then it goes as paymentorder.do: the first answer, the repeat with threeDSServerTransId at the ACS, and finish3dsVer2Payment.do', async () => {
      const card = await saveCard(sandbox, '4000000000003220', `cus_${randomUUID()}`);
      const orderId = await clientOrder(card.clientId);
      const finishUrl = 'https://merchant.example.tn/3ds2';
      const first = await payWithBinding(orderId, card.bindingId, { threeDSVer2FinishUrl: finishUrl });
      assert.equal(first.body['is3DSVer2'], true);
      const transId = String(first.body['threeDSServerTransId']);
      const repeat = await payWithBinding(orderId, card.bindingId, { threeDSServerTransId: transId });
      assert.deepEqual(Object.keys(repeat.body), ['errorCode', 'errorMessage', 'is3DSVer2', 'threeDSServerTransId', 'acsUrl', 'packedCReq']);
      const page = await postForm(`${sandbox.baseUrl}/acs`, { creq: String(repeat.body['packedCReq']) });
      const back = await answerChallenge(sandbox.baseUrl, page.text, 'Y');
      assert.equal(back.action, finishUrl);
      assert.equal(codeOf((await sandbox.call('finish3dsVer2Payment.do', { mdOrder: orderId, threeDSServerTransId: transId })).body), '0');
      assert.equal((await sandbox.status(orderId)).orderStatus, 2);

      // A repeat naming another of the client's cards is refused.
      const other = await saveCard(sandbox, '4242424242424242', card.clientId);
      const second = await clientOrder(card.clientId);
      const secondFirst = await payWithBinding(second, card.bindingId);
      const wrong = await payWithBinding(second, other.bindingId, { threeDSServerTransId: String(secondFirst.body['threeDSServerTransId']) });
      assert.deepEqual(wrong.body, { errorCode: '5', errorMessage: 'bindingId is invalid' });
      assert.equal((await sandbox.status(second)).orderStatus, 5);
    });

    it("When D24's cards pay on the page with their binding, then they are approved; with tii U or R (no buyer, no cvc), they fail as their issuer does off-session", async () => {
      const expected = [
        ['4000000000003055', 116],
        ['4000002760003184', 2001],
      ] as const;
      for (const [pan, actionCode] of expected) {
        const card = await saveCard(sandbox, pan, `cus_${randomUUID()}`);
        const onPage = await clientOrder(card.clientId);
        await payWithBinding(onPage, card.bindingId, { tii: 'F' });
        assert.equal((await sandbox.status(onPage)).orderStatus, 2, pan);
        for (const tii of ['U', 'R']) {
          const offSession = await clientOrder(card.clientId);
          const res = await payWithBinding(offSession, card.bindingId, { tii, cvc: '' });
          assert.equal(codeOf(res.body), '0', `${pan} ${tii}`);
          const status = await sandbox.status(offSession);
          assert.deepEqual([status.orderStatus, status.actionCode], [6, actionCode], `${pan} ${tii}`);
        }
      }
    });
  });
});
