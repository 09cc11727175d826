import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'mocha';
import { clientAddress, forwardedChain } from '../../src/client-address.js';

/** A request from `peer` carrying `forwarded` as its X-Forwarded-For. */
function request(peer: string, forwarded?: string | string[]): IncomingMessage {
  return { socket: { remoteAddress: peer }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } } as unknown as IncomingMessage;
}

describe('client address behind trusted proxies', () => {
  it('when no proxy is trusted, then the peer is the client whatever X-Forwarded-For says', () => {
    assert.equal(clientAddress(request('198.51.100.1', '203.0.113.9'), 0), '198.51.100.1');
    assert.deepEqual(forwardedChain(request('198.51.100.1', '203.0.113.9'), 0), ['198.51.100.1']);
  });

  it('when one proxy of ours is in front, then the client is the entry it appended, the last one, never one the client wrote before it', () => {
    assert.equal(clientAddress(request('10.0.0.2', '203.0.113.9'), 1), '203.0.113.9');
    assert.equal(clientAddress(request('10.0.0.2', '192.0.2.66, 203.0.113.9'), 1), '203.0.113.9');
    assert.equal(clientAddress(request('10.0.0.2', ['192.0.2.66', '198.51.100.5,203.0.113.9']), 1), '203.0.113.9');
    assert.deepEqual(forwardedChain(request('10.0.0.2', '192.0.2.66, 203.0.113.9'), 1), ['203.0.113.9', '10.0.0.2']);
  });

  it('when two proxies of ours are in front, then the client is the second entry from the right', () => {
    assert.equal(clientAddress(request('10.0.0.3', '192.0.2.66, 203.0.113.9, 10.0.0.2'), 2), '203.0.113.9');
    assert.deepEqual(forwardedChain(request('10.0.0.3', '192.0.2.66, 203.0.113.9, 10.0.0.2'), 2), ['203.0.113.9', '10.0.0.2', '10.0.0.3']);
  });

  it('when the header holds fewer entries than trusted hops, or none, then the farthest address there is answers', () => {
    assert.equal(clientAddress(request('10.0.0.3', '203.0.113.9'), 2), '203.0.113.9');
    assert.equal(clientAddress(request('10.0.0.3'), 1), '10.0.0.3');
    assert.equal(clientAddress(request('10.0.0.3', ' , '), 1), '10.0.0.3');
  });

  it('when the client pads the header with empty entries, then the entries our proxy appended still count from the right', () => {
    assert.equal(clientAddress(request('10.0.0.2', '192.0.2.66, , 203.0.113.9'), 1), '203.0.113.9');
  });
});
