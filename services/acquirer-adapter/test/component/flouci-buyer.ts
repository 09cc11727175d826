/** The buyer at the sandbox's Flouci page, as a browser without scripts: opens the page, then posts its form with a phone and the button pressed. */
import assert from 'node:assert/strict';

/** Flouci's page for `link`, at the sandbox the test reaches (the link names the sandbox's public address). */
function pageAt(link: string, sandboxUrl: string): URL {
  return new URL(new URL(link).pathname, sandboxUrl);
}

/** Presses `action` (confirm or cancel) with `phone` on the payment's page; answers where the buyer is sent next (redirects are not followed). */
export async function answerFlouciPage(link: string, sandboxUrl: string, phone: string, action: 'confirm' | 'cancel' = 'confirm'): Promise<URL> {
  const page = pageAt(link, sandboxUrl);
  const shown = await fetch(page);
  const html = await shown.text();
  assert.equal(shown.status, 200, html);
  assert.match(html, /Flouci/);
  const target = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  assert.ok(target, 'the page has a form');
  const answered = await fetch(new URL(target, page), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ phone, action }).toString(),
  });
  await answered.arrayBuffer();
  const location = answered.headers.get('location');
  assert.ok(answered.status >= 300 && answered.status < 400 && location, `the page sends the buyer on (HTTP ${answered.status})`);
  return new URL(location);
}

/** Confirm payment with `phone`: pays, holds (pre-authorized), declines (20000002) or leaves it pending (20000003). */
export function payOnFlouciPage(link: string, sandboxUrl: string, phone = '22123456'): Promise<URL> {
  return answerFlouciPage(link, sandboxUrl, phone, 'confirm');
}
