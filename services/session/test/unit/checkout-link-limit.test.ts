/**
 * Issuing another checkout link (D4) without servers: open sessions only, at
 * most five unexpired checkout links, each living the checkout link lifetime
 * but never past its session. The session store is replaced by the row it
 * would lock.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import type { ApiContext } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { CheckoutLinkSigner, MAX_ACTIVE_CHECKOUT_LINKS, type MintedCheckoutLink } from '../../src/domain/checkout-links.js';
import type { SessionDeps } from '../../src/domain/deps.js';
import { issueCheckoutLink } from '../../src/domain/issue-checkout-link.js';
import type { SessionRow } from '../../src/domain/session.js';

const NOW = new Date('2026-11-22T10:00:00.400Z');
const context: ApiContext = { merchant_id: 'mer_1', livemode: false, order_prefix: 'ABC', merchant_name: 'Shop', request_id: 'req-1' };
const { privateKey } = generateKeyPairSync('ed25519');

/** Session dependencies over `row` (undefined: no such session) with `active` unexpired links. */
async function deps(row: Partial<SessionRow> | undefined, active: number) {
  const added: MintedCheckoutLink[] = [];
  const sessions = {
    withLockedSession: async (_account: unknown, _id: string, work: (locked: SessionRow | undefined, tx: unknown) => Promise<unknown>) => work(row as SessionRow | undefined, {}),
  };
  const checkoutLinks = {
    countActive: async () => active,
    add: async (_tx: unknown, _id: string, link: MintedCheckoutLink) => void added.push(link),
  };
  const signer = await CheckoutLinkSigner.fromJwk(JSON.stringify(privateKey.export({ format: 'jwk' })));
  return { deps: { sessions, checkoutLinks, signer, clock: () => NOW, publicBaseUrl: 'https://pay.example.tn', checkoutLinkTtlSeconds: 1800 } as unknown as SessionDeps, added };
}

const open = { id: 'ps_1', status: 'CREATED', expires_at: new Date('2026-11-23T10:00:00.000Z') } as const;

async function problem(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    return err.code;
  }
  assert.fail('no problem was raised');
}

describe('Issuing another checkout link', () => {
  it('when an open session has fewer than five active links, then a link is minted for the link lifetime and recorded', async () => {
    const { deps: d, added } = await deps(open, MAX_ACTIVE_CHECKOUT_LINKS - 1);
    const link = await issueCheckoutLink(d, context, 'ps_1');
    assert.equal(added.length, 1);
    assert.equal(link.checkout_url, `https://pay.example.tn/checkout/${added[0]?.token}`);
    assert.equal(link.expires_at, '2026-11-22T10:30:00.000Z');
  });

  it('when the session ends sooner than the link lifetime, then the link ends with it', async () => {
    const { deps: d } = await deps({ ...open, expires_at: new Date('2026-11-22T10:10:00.000Z') }, 0);
    assert.equal((await issueCheckoutLink(d, context, 'ps_1')).expires_at, '2026-11-22T10:10:00.000Z');
  });

  it('when five links are active, then the sixth is checkout-limit-exceeded and nothing is recorded', async () => {
    assert.equal(MAX_ACTIVE_CHECKOUT_LINKS, 5);
    const { deps: d, added } = await deps(open, 5);
    assert.equal(await problem(issueCheckoutLink(d, context, 'ps_1')), 'checkout-limit-exceeded');
    assert.deepEqual(added, []);
  });

  it('when the session is being paid, is terminal, or is not the caller’s, then no link is issued', async () => {
    for (const [row, code] of [
      [{ ...open, status: 'PROCESSING' }, 'conflict'],
      [{ ...open, status: 'SUCCEEDED' }, 'session-terminal'],
      [{ ...open, expires_at: NOW }, 'session-terminal'],
      [undefined, 'not-found'],
    ] as const) {
      const { deps: d, added } = await deps(row, 0);
      assert.equal(await problem(issueCheckoutLink(d, context, 'ps_1')), code);
      assert.deepEqual(added, []);
    }
  });
});
