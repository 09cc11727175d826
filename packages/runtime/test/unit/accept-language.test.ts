import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { negotiateLanguage, parseAcceptLanguage } from '../../src/accept-language.js';

describe('Accept-Language', () => {
  it('when a browser weighs its languages, then they come by q-value, ties in order, q=0 and malformed ranges dropped', () => {
    assert.deepEqual(parseAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5'), ['fr-ch', 'fr', 'en', 'de', '*']);
    assert.deepEqual(parseAcceptLanguage('en;q=0.2, ar ;q=0.9,fr'), ['fr', 'ar', 'en']);
    assert.deepEqual(parseAcceptLanguage('en;q=2, <script>, fr;q=abc, ar'), ['ar']);
  });

  it('when a page speaks some languages, then it takes the first the browser asks for by primary subtag, else its fallback', () => {
    const ours = ['en', 'fr', 'ar'] as const;
    assert.equal(negotiateLanguage('ar-TN,ar;q=0.9,fr;q=0.8', ours, 'en'), 'ar');
    assert.equal(negotiateLanguage('de, fr;q=0.5, ar;q=0.7', ours, 'en'), 'ar');
    assert.equal(negotiateLanguage('de, *;q=0.5, fr;q=0.1', ours, 'en'), 'en');
    assert.equal(negotiateLanguage(undefined, ours, 'fr'), 'fr');
  });
});
