/** With SCREENSHOT_DIR set, the pages the README and the docs show are saved there (`npm run screenshots`). */
import type { Page } from 'playwright-core';

export async function snap(page: Page, name: string): Promise<void> {
  const dir = process.env['SCREENSHOT_DIR'];
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}
