/** Paying on the hosted page in a browser (launched by the testkit's launchBrowser). */
import type { Page } from 'playwright-core';

export interface CardEntry {
  number: string;
  expiry?: string;
  cvc?: string;
  name?: string;
}

/** Fills the card form by its visible labels (D9) and presses its Pay (not "Pay with Flouci", D26). */
export async function payWith(page: Page, card: CardEntry): Promise<void> {
  await page.getByLabel('Card number').fill(card.number);
  await page.getByLabel('Expiry date').fill(card.expiry ?? '12/34');
  await page.getByLabel('Security code').fill(card.cvc ?? '123');
  await page.getByLabel('Name on card').fill(card.name ?? 'Amina Ben Salah');
  await page.locator('form.payment-form').getByRole('button', { name: /^Pay/ }).click();
}
