/** The buyer's browser at the sandbox's 3-D Secure pages: posting the challenge, answering it, reading the form that hands the buyer back. */
import assert from 'node:assert/strict';
import { read, type Reply } from './sandbox-harness.js';

/** The form a page posts: its action and hidden fields. */
export interface PostedForm {
  action: string;
  fields: Record<string, string>;
}

/** POSTs a form to a page of the sandbox (or any URL), as a browser does; redirects are not followed. */
export async function postForm(url: string, fields: Record<string, string>): Promise<Reply> {
  return read(await fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }));
}

/** The signed decision of a challenge page. */
export function decisionOf(page: string): string {
  const decision = /<input type="hidden" name="decision" value="([^"]+)">/.exec(page)?.[1];
  assert.ok(decision, 'the page carries its decision');
  assert.ok(page.includes('<button type="submit" name="result" value="Y">Complete authentication</button>'), 'Complete authentication');
  assert.ok(page.includes('<button type="submit" name="result" value="N">Fail authentication</button>'), 'Fail authentication');
  return decision;
}

/** The one form of a hand-back page, its action and hidden fields (entities decoded as a browser does). */
function handBackForm(page: string): PostedForm {
  const action = /<form method="post" action="([^"]+)">/.exec(page)?.[1];
  assert.ok(action, 'the page has a form');
  const fields: Record<string, string> = {};
  for (const [, name, value] of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[unescape(name ?? '')] = unescape(value ?? '');
  return { action: unescape(action), fields };
}

/** Answers a challenge page at the ACS (Y complete, N fail) and reads the form that takes the buyer back. */
export async function answerChallenge(baseUrl: string, page: string, result: 'Y' | 'N'): Promise<PostedForm> {
  const back = await postForm(`${baseUrl}/acs/answer`, { decision: decisionOf(page), result });
  assert.equal(back.status, 200, back.text);
  return handBackForm(back.text);
}

function unescape(text: string): string {
  return text.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}
