/** Headless Chromium for the hosted-page tests (the distribution's build, never a download). */
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-extensions'],
  });
}

export interface CardEntry {
  number: string;
  expiry?: string;
  cvc?: string;
  name?: string;
}

/** Fills the card form by its visible labels (D9) and presses Pay. */
export async function payWith(page: Page, card: CardEntry): Promise<void> {
  await page.getByLabel('Card number').fill(card.number);
  await page.getByLabel('Expiry date').fill(card.expiry ?? '12/34');
  await page.getByLabel('Security code').fill(card.cvc ?? '123');
  await page.getByLabel('Name on card').fill(card.name ?? 'Amina Ben Salah');
  await page.getByRole('button', { name: /^Pay/ }).click();
}
