import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'mocha';
import { clientAddress, forwardedChain, throttledAddress } from '../../src/client-address.js';

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

describe('the address a throttle counts', () => {
  it('when the address is IPv4, or IPv4 mapped into IPv6, then it is the IPv4 address', () => {
    assert.equal(throttledAddress('203.0.113.9'), '203.0.113.9');
    assert.equal(throttledAddress('::ffff:203.0.113.9'), '203.0.113.9');
  });

  it('when addresses are IPv6, then those of one /64 count as one, however they are written, and another /64 apart', () => {
    const one = throttledAddress('2001:db8:1:2::1');
    assert.equal(one, '2001:db8:1:2::/64');
    assert.equal(throttledAddress('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), one);
    assert.equal(throttledAddress('2001:DB8:1:2:a::b'), one);
    assert.equal(throttledAddress('2001:db8:1:2::1%eth0'), one);
    assert.equal(throttledAddress('2001:db8:1:2:0:0:192.0.2.1'), one);
    assert.notEqual(throttledAddress('2001:db8:1:3::1'), one);
    assert.equal(throttledAddress('::1'), '0:0:0:0::/64');
  });

  it('when the address is not an IP address, then it is counted as written', () => {
    assert.equal(throttledAddress('unknown'), 'unknown');
  });
});
