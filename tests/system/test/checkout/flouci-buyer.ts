/** A buyer paying with Flouci over plain HTTP (D26): the hosted page's button, the sandbox's Flouci page, and the way back. */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SessionDetail } from '@gateway/contracts';
import type { TestSystem } from '@gateway/testkit';

/** The sandbox's default Flouci application, which test mode's payments are made with. */
const TEST_APP = 'gateway-flouci-test-public:gateway-flouci-test-private';

export class FlouciBuyer {
  constructor(private readonly system: TestSystem) {}

  /**
   * Presses "Pay with Flouci" on the session's page: the hand-off page's
   * Flouci link, and the attempt it started (Flouci's developer_tracking_id).
   */
  async start(session: SessionDetail, language = 'en'): Promise<{ link: string; attemptId: string }> {
    const posted = await fetch(`${session.checkout_url ?? ''}/wallet/flouci`, {
      method: 'POST',
      body: new URLSearchParams({ language }),
      redirect: 'manual',
      headers: { 'accept-language': language },
    });
    const html = await posted.text();
    assert.equal(posted.status, 200, html.slice(0, 300));
    const refresh = /<meta http-equiv="refresh" content="0;\s*url=([^"]+)">/.exec(html)?.[1];
    assert.ok(refresh, 'the hand-off page refreshes to Flouci');
    const link = refresh.replaceAll('&amp;', '&');
    const verified = await fetch(`${this.system.sandboxUrl}/api/v2/verify_payment/${link.split('/').pop() ?? ''}`, { headers: { authorization: `Bearer ${TEST_APP}` } });
    const body = (await verified.json()) as { result?: { developer_tracking_id?: string } };
    const attemptId = body.result?.developer_tracking_id ?? '';
    assert.match(attemptId, /^pa_/);
    return { link, attemptId };
  }

  /** Answers Flouci's page with `phone` (Confirm payment, or Cancel): where Flouci sends the buyer back. */
  async answer(link: string, phone: string, action: 'confirm' | 'cancel' = 'confirm'): Promise<URL> {
    const page = new URL(new URL(link).pathname, this.system.sandboxUrl);
    const shown = await fetch(page);
    const html = await shown.text();
    assert.equal(shown.status, 200, html.slice(0, 300));
    const answered = await fetch(page, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ phone, action }) });
    await answered.arrayBuffer();
    const location = answered.headers.get('location');
    assert.ok(answered.status === 303 && location, `Flouci sends the buyer back (HTTP ${answered.status})`);
    return new URL(location);
  }

  /** The buyer's browser at `url` (our return address): the page it ends on within the hosted page, and its status. */
  async returnTo(url: URL): Promise<{ status: number; html: string }> {
    let target = url;
    for (let hop = 0; hop < 3; hop += 1) {
      const answered = await fetch(target, { redirect: 'manual', headers: { 'accept-language': 'en' } });
      const location = answered.headers.get('location');
      if (answered.status !== 303 || !location || new URL(location, target).origin !== url.origin) return { status: answered.status, html: await answered.text() };
      await answered.arrayBuffer();
      target = new URL(location, target);
    }
    assert.fail('too many redirects');
  }

  /** Polls `check` until it answers something; fails after `timeoutMs`. */
  async until<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await check();
      if (found !== undefined) return found;
      if (Date.now() > deadline) assert.fail('not reached in time');
      await sleep(250);
    }
  }
}
