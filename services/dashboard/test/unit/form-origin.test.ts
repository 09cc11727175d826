import assert from 'node:assert/strict';
import type { Request } from 'express';
import { describe, it } from 'mocha';
import { fromAnotherSite, type DoorDeps } from '../../src/http/door.js';

const deps = { publicOrigin: 'https://pay.example.tn' } as DoorDeps;
const request = (headers: Record<string, string>) => ({ headers }) as unknown as Request;

describe('where a form comes from', () => {
  it('when a browser posts our own form from a no-referrer page (Origin: null, Sec-Fetch-Site: same-origin), then it is ours', () => {
    assert.equal(fromAnotherSite(deps, request({ origin: 'null', 'sec-fetch-site': 'same-origin' })), false);
    assert.equal(fromAnotherSite(deps, request({ origin: 'https://pay.example.tn', 'sec-fetch-site': 'same-origin' })), false);
  });

  it("when another site's page posts (cross-site or same-site, whatever its Origin), then it is refused", () => {
    for (const site of ['cross-site', 'same-site', 'none']) {
      assert.equal(fromAnotherSite(deps, request({ origin: 'null', 'sec-fetch-site': site })), true, site);
      assert.equal(fromAnotherSite(deps, request({ origin: 'https://pay.example.tn', 'sec-fetch-site': site })), true, site);
    }
  });

  it('when a client sends no Sec-Fetch-Site, then only an Origin other than ours (and not null) is refused', () => {
    assert.equal(fromAnotherSite(deps, request({})), false);
    assert.equal(fromAnotherSite(deps, request({ origin: 'null' })), false);
    assert.equal(fromAnotherSite(deps, request({ origin: 'https://pay.example.tn' })), false);
    assert.equal(fromAnotherSite(deps, request({ origin: 'https://attacker.example' })), true);
    assert.equal(fromAnotherSite(deps, request({ origin: 'https://pay.example.tn.attacker.example' })), true);
  });
});
