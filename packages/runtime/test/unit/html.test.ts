import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { escapeHtml, html, pageSecurityHeaders, trustedHtml } from '../../src/html.js';

describe('html templates', () => {
  it('when a value is interpolated, then it is escaped for text and attributes alike', () => {
    const name = `<script>alert("x")</script>' onerror='1 & 2`;
    const out = html`<p title="${name}">${name}</p>`.toString();
    assert.equal(out, `<p title="${escapeHtml(name)}">${escapeHtml(name)}</p>`);
    assert.ok(!out.includes('<script>'));
    assert.ok(!out.includes(`'`));
  });

  it('when templates nest or come in arrays, then their markup stays and their values are escaped once', () => {
    const items = ['a<b', 'c&d'].map((item) => html`<li>${item}</li>`);
    assert.equal(html`<ul>${items}</ul>`.toString(), '<ul><li>a&lt;b</li><li>c&amp;d</li></ul>');
    assert.equal(html`${undefined}${null}${false}${0}`.toString(), '0');
  });

  it('when markup must go in unescaped, then only trustedHtml does it', () => {
    assert.equal(html`${trustedHtml('<b>x</b>')}`.toString(), '<b>x</b>');
    // A plain string that looks like markup is still text.
    assert.equal(html`${'<b>x</b>'}`.toString(), '&lt;b&gt;x&lt;/b&gt;');
  });

  it('when a page needs scripts, then only its own origin may serve them, and nothing may frame it', () => {
    assert.match(pageSecurityHeaders({ scripts: true })['Content-Security-Policy'] ?? '', /script-src 'self'/);
    assert.doesNotMatch(pageSecurityHeaders()['Content-Security-Policy'] ?? '', /script-src/);
    assert.equal(pageSecurityHeaders()['X-Frame-Options'], 'DENY');
  });

  it('when a page hands the buyer on (D30), then it may post to and frame the origins it names or any https: origin, and nothing else goes into the policy', () => {
    const policy = pageSecurityHeaders({ scripts: true, formOrigins: ['https:'], frameOrigins: ['http://127.0.0.1:8086'] })['Content-Security-Policy'] ?? '';
    assert.match(policy, /form-action 'self' https:;/);
    assert.match(policy, / frame-src http:\/\/127\.0\.0\.1:8086;/);
    for (const bad of ['http:', 'https://a.example/path', "https://a.example 'unsafe-inline'", 'https://a.example;script-src *', '*']) {
      assert.throws(() => pageSecurityHeaders({ formOrigins: [bad] }), RangeError, bad);
    }
  });
});
