/** Headless Chromium for the tests of pages people use (the distribution's build, never a download). */
import type { Browser } from 'playwright-core';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  // Loaded here, not with the testkit: only browser tests pay for it.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-extensions'],
  });
}
