/**
 * A buyer paying with Flouci (D26) in a browser: the hosted page's button in
 * the page's language, the hand-off to the sandbox's Flouci page (WALLET.md
 * "The sandbox"), the phone typed there and the way back; and the merchant's
 * side of it through the API.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { SessionDetail } from '@gateway/contracts';
import { pollUntil, sessionRequest, type Merchant, type MerchantSite, type TestBrowser, type TestSystem } from '@gateway/testkit';

/** The hosted page's Flouci button, by the page's language (the wallet catalogue). */
const PAY_WITH_FLOUCI = { en: 'Pay with Flouci', fr: 'Payer avec Flouci', ar: 'ادفع عبر Flouci' } as const;
export type PageLanguage = keyof typeof PAY_WITH_FLOUCI;
/** The hand-off page's link to Flouci, for a browser that does not follow its refresh. */
const CONTINUE_TO_FLOUCI: Readonly<Record<PageLanguage, string>> = { en: 'Continue to Flouci', fr: 'Continuer vers Flouci', ar: 'المتابعة إلى Flouci' };

/** The sandbox's test phones (D26): one declined, one that never completes; any other 8 digits pay. */
const PAYING_PHONE = '22123456';
export const DECLINED_PHONE = '20000002';
export const NEVER_COMPLETING_PHONE = '20000003';

/** An attempt as these tests compare them: how it paid, how it ended, and why. */
export type AttemptSummary = [method: string, status: string, brand: string, failure: string];

export class FlouciBrowserSteps {
  constructor(
    private readonly system: TestSystem,
    private readonly browser: TestBrowser,
    private readonly shop: MerchantSite,
  ) {}

  /** A session of a new merchant, returning to the shop, in English unless `body` says otherwise. */
  async newSession(body: Record<string, unknown> = {}): Promise<{ merchant: Merchant; session: SessionDetail }> {
    const merchant = await this.system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
    const created = await this.system.api(merchant.testKey).post<SessionDetail>('/gateway/sessions/', sessionRequest({ locale: 'en', return_url: this.shop.url('/thanks'), ...body }));
    assert.equal(created.status, 201, created.text);
    return { merchant, session: created.body };
  }

  async session(merchant: Merchant, id: string): Promise<SessionDetail> {
    const read = await this.system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${id}/`);
    assert.equal(read.status, 200, read.text);
    return read.body;
  }

  /** The session as the API shows it once `done` holds for it; fails after `timeoutMs`. */
  async sessionWhen(merchant: Merchant, id: string, done: (session: SessionDetail) => boolean, what: string, timeoutMs = 15_000): Promise<SessionDetail> {
    let last: SessionDetail | undefined;
    await pollUntil(async () => done((last = await this.session(merchant, id))), timeoutMs, what, 250);
    assert.ok(last);
    return last;
  }

  /** The session's hosted page, opened in a browser of its own. */
  async open(session: SessionDetail): Promise<Page> {
    const page = await this.browser.newPage();
    const response = await page.goto(session.checkout_url ?? '');
    assert.equal(response?.status(), 200);
    return page;
  }

  /** Presses the Flouci button of a page in `language`: the browser ends on Flouci's page. */
  async toFlouci(page: Page, language: PageLanguage = 'en'): Promise<void> {
    assert.equal(await page.locator('html').getAttribute('lang'), language);
    await page.getByRole('button', { name: PAY_WITH_FLOUCI[language], exact: true }).click();
    await page.waitForURL((url) => url.origin === this.system.sandboxUrl);
    await page.getByRole('heading', { name: /Flouci/ }).waitFor();
  }

  /**
   * Holds the browser's way to the sandbox (Flouci's page) until the returned
   * function is called, so the hand-off page, which refreshes to Flouci at
   * once, can be read meanwhile.
   */
  async holdFlouciPage(page: Page): Promise<() => void> {
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.origin === this.system.sandboxUrl,
      async (route) => {
        await released;
        await route.continue();
      },
    );
    return release;
  }

  /** Answers Flouci's page: the phone, then Confirm payment. */
  async confirmAtFlouci(page: Page, phone: string): Promise<void> {
    await page.getByLabel('Phone number').fill(phone);
    await page.getByRole('button', { name: 'Confirm payment' }).click();
  }

  /** The buyer pays with Flouci on the session's page and comes back to the shop: the shop's visit. */
  async payWithFlouci(session: SessionDetail, language: PageLanguage = 'en'): Promise<URL> {
    const page = await this.open(session);
    try {
      const release = await this.holdFlouciPage(page);
      // The hand-off page is read while the way to Flouci is held; released whatever it shows, so nothing is left waiting.
      await Promise.all([this.handOffPage(page, language).finally(release), this.toFlouci(page, language)]);
      await this.confirmAtFlouci(page, PAYING_PHONE);
      await page.waitForURL((url) => url.origin === this.shop.origin);
      return new URL(page.url());
    } finally {
      await page.close();
    }
  }

  /** The hand-off page as the browser gets it after the button: in the page's language, refreshing at once to Flouci's page, and linking there. */
  private async handOffPage(page: Page, language: PageLanguage): Promise<void> {
    const answered = await page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname.endsWith('/wallet/flouci'));
    const html = await answered.text();
    assert.equal(answered.status(), 200, html.slice(0, 300));
    const refresh = /<meta http-equiv="refresh" content="0;\s*url=([^"]+)">/.exec(html)?.[1] ?? '';
    assert.equal(new URL(refresh.replaceAll('&amp;', '&')).origin, this.system.sandboxUrl);
    assert.ok(html.includes(`>${CONTINUE_TO_FLOUCI[language]}</a>`), 'the hand-off page links to Flouci');
  }

  /** A session paid with Flouci in the browser, as the API shows it once the buyer is back at the shop. */
  async paidWithFlouci(body: Record<string, unknown> = {}): Promise<{ merchant: Merchant; session: SessionDetail }> {
    const { merchant, session } = await this.newSession(body);
    await this.payWithFlouci(session);
    return { merchant, session: await this.session(merchant, session.id) };
  }

  /** The hold of the adapter's order for `attemptId` (D22), as stored. */
  async holdOf(attemptId: string): Promise<string | null | undefined> {
    const rows = await this.system.db.query<{ hold: string | null }>('SELECT hold FROM acquirer.orders WHERE attempt_id = $1', [attemptId]);
    return rows[0]?.hold;
  }

  /** Waits until the hold of `attemptId`'s order is `hold`; fails after `timeoutMs`. */
  async holdBecomes(attemptId: string, hold: string, timeoutMs = 15_000): Promise<void> {
    let last: string | null | undefined;
    await pollUntil(async () => (last = await this.holdOf(attemptId)) === hold, timeoutMs, `the hold to be ${hold}`, 250).catch((err: unknown) => {
      throw new Error(`${String(err)}; it is ${String(last)}`);
    });
  }
}

/** The session's attempts, oldest first, as [method, status, brand, failure code]. */
export function attemptsOf(session: SessionDetail): AttemptSummary[] {
  return session.attempts.map((a) => [a.payment_method_type, a.status, a.card_brand, a.failure_code]);
}
