import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { buyerAddress } from '../../src/http/buyer-address.js';

function request(peer: string | undefined, forwardedFor?: string): IncomingMessage {
  return { socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } } as unknown as IncomingMessage;
}

describe("the buyer's address for the acquirer", () => {
  it('When the gateway stands in front, then the address it appended, never one the buyer wrote', () => {
    assert.equal(buyerAddress(request('10.0.0.2', '6.6.6.6, 197.15.3.4'), 1), '197.15.3.4');
    assert.equal(buyerAddress(request('10.0.0.2', '2c0f:fe38:2::7'), 1), '2c0f:fe38:2::7');
  });

  it('When the address is IPv4 seen over IPv6, then it is given as IPv4', () => {
    assert.equal(buyerAddress(request('::ffff:197.15.3.4'), 0), '197.15.3.4');
    assert.equal(buyerAddress(request('10.0.0.2', '::FFFF:41.229.1.2'), 1), '41.229.1.2');
  });

  it('When no address can be told, or the header holds no address, then none', () => {
    assert.equal(buyerAddress(request(undefined), 0), undefined);
    assert.equal(buyerAddress(request('10.0.0.2', 'unknown'), 1), undefined);
    assert.equal(buyerAddress(request('10.0.0.2', '<script>'), 1), undefined);
  });
});
