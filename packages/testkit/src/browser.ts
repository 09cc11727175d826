/** Headless Chromium for the tests of pages people use (the distribution's build, never a download). */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * A test's browser: pages and contexts of its own, in the one Chromium this
 * test process starts (starting one costs seconds of CPU); `close` closes
 * what the test opened, and leaves Chromium to the next test file.
 */
export interface TestBrowser {
  newPage(options?: BrowserContextOptions): Promise<Page>;
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  close(): Promise<void>;
}

let shared: Promise<Browser> | undefined;

function chromiumOfThisProcess(): Promise<Browser> {
  shared ??= (async () => {
    // Loaded here, not with the testkit: only browser tests pay for it.
    const { chromium } = await import('playwright-core');
    return chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-extensions'],
    });
  })();
  return shared;
}

export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await chromiumOfThisProcess();
  const opened = new Set<BrowserContext>();
  const newContext = async (options?: BrowserContextOptions) => {
    const context = await browser.newContext(options);
    opened.add(context);
    context.once('close', () => opened.delete(context));
    return context;
  };
  return {
    newContext,
    // As Browser#newPage: a page in a context of its own, closed with it.
    async newPage(options) {
      const context = await newContext(options);
      const page = await context.newPage();
      page.once('close', () => void context.close().catch(() => undefined));
      // Chromium may acknowledge a page's close that races a navigation commit (a page that
      // refreshes itself, as the processing page does) and never close it, so Page#close can
      // wait for ever (crbug.com/536385539); closing the page's own context does not race.
      page.close = () => context.close();
      return page;
    },
    async close() {
      await Promise.all([...opened].map((context) => context.close().catch(() => undefined)));
    },
  };
}

/**
 * A page of its own context (`options`: its locale, downloads, script)
 * signed in to the dashboard at `baseUrl`, confirm dialogs accepted, once it
 * has left the sign-in page for wherever the dashboard opens.
 */
export async function signInToDashboard(browser: TestBrowser, baseUrl: string, email: string, password: string, options: BrowserContextOptions = {}): Promise<Page> {
  const page = await (await browser.newContext({ locale: 'en-GB', ...options })).newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${baseUrl}/dashboard/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.includes('/sign-in'));
  return page;
}

/**
 * Holds the issuer's 3DS Method request (a post to `sandboxOrigin` carrying
 * threeDSMethodData) until the returned function is called, so the page
 * waiting for its frame can be read before its script moves on (well within
 * the page's wait).
 */
export async function holdThreeDSMethod(page: Page, sandboxOrigin: string): Promise<() => void> {
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.origin === sandboxOrigin,
    async (route) => {
      if (new URLSearchParams(route.request().postData() ?? '').has('threeDSMethodData')) await released;
      await route.continue();
    },
  );
  return release;
}
