/**
 * The X-Service-Signature scheme merchants verify with and the dispatcher signs
 * with (one code, the SDK's), checked against an independent HMAC and openssl's
 * published vector; then constructEvent, which verifies and returns the event.
 */
import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import {
  DEFAULT_TOLERANCE_SECONDS,
  computeSignature,
  parseSignatureHeader,
  SignatureVerificationError,
  signatureHeader,
  verifySignature,
  Webhooks,
} from '@gateway/sdk';

const SECRET = 'whsec_test_secret_123';
const OLD_SECRET = 'whsec_old_secret_456';
const OTHER_SECRET = 'whsec_unrelated_789';
const T = 1700000000;
const BODY = '{"id":"evt_1","type":"payment.succeeded","amount":"12.500"}';
// From `printf '%s' "1700000000.$BODY" | openssl dgst -sha256 -hmac whsec_test_secret_123`, outside Node entirely.
const OPENSSL_VECTOR = '94989683122158fce8bc55094655e72fdbbb36ebde1d09dea857bf3750345a33';

function independentHmac(key: string, t: number, body: string | Uint8Array): string {
  return createHmac('sha256', key).update(Buffer.concat([Buffer.from(`${t}.`), Buffer.from(body)])).digest('hex');
}

describe('computeSignature', () => {
  it('When the body is signed, then the value is the HMAC-SHA256 of "t.body" keyed with the whole whsec_ string', () => {
    assert.equal(computeSignature(SECRET, T, BODY), independentHmac(SECRET, T, BODY));
  });

  it('When the published vector is recomputed, then it matches the value openssl gives', () => {
    assert.equal(computeSignature(SECRET, T, BODY), OPENSSL_VECTOR);
  });

  it('When the whsec_ prefix is dropped from the key, then the signature differs', () => {
    assert.notEqual(computeSignature(SECRET, T, BODY), independentHmac(SECRET.slice('whsec_'.length), T, BODY));
  });

  it('When the result is produced, then it is 64 lowercase hex characters', () => {
    assert.match(computeSignature(SECRET, T, BODY), /^[0-9a-f]{64}$/);
  });

  it('When the body has non-ASCII text, then a string and its UTF-8 Buffer give the same signature', () => {
    const body = '{"merchant":"Café Tunis","note":"مرحبا"}';
    assert.equal(computeSignature(SECRET, T, body), computeSignature(SECRET, T, Buffer.from(body, 'utf8')));
    assert.equal(computeSignature(SECRET, T, body), independentHmac(SECRET, T, Buffer.from(body, 'utf8')));
  });

  it('When the body is a plain Uint8Array of bytes that are not valid UTF-8, then those exact bytes are signed', () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x00, 0x7b]);
    assert.equal(computeSignature(SECRET, T, bytes), independentHmac(SECRET, T, bytes));
  });

  it('When the secret is empty, then it throws rather than sign with a key anyone knows', () => {
    assert.throws(() => computeSignature('', T, BODY), TypeError);
  });
});

describe('signatureHeader', () => {
  it('When one secret is given, then the header is t then one v1 with no spaces', () => {
    assert.equal(signatureHeader([SECRET], T, BODY), `t=${T},v1=${OPENSSL_VECTOR}`);
  });

  it('When two secrets are given, then the v1 entries follow the order of the secrets', () => {
    const header = signatureHeader([SECRET, OLD_SECRET], T, BODY);
    assert.equal(
      header,
      `t=${T},v1=${independentHmac(SECRET, T, BODY)},v1=${independentHmac(OLD_SECRET, T, BODY)}`,
    );
    assert.doesNotMatch(header, /\s/);
  });

  it('When the secrets list is empty, then it throws', () => {
    assert.throws(() => signatureHeader([], T, BODY), RangeError);
  });

  for (const bad of [1700000000.5, Number.NaN, Number.POSITIVE_INFINITY, -1]) {
    it(`When the timestamp is ${bad}, then it throws`, () => {
      assert.throws(() => signatureHeader([SECRET], bad, BODY), RangeError);
    });
  }
});

describe('verifySignature', () => {
  const header = `t=${T},v1=${independentHmac(SECRET, T, BODY)}`;

  it('When the header was computed independently with the same secret, then it verifies', () => {
    assert.equal(verifySignature(BODY, header, SECRET, 300, T), true);
  });

  it('When the header comes from signatureHeader, then it verifies', () => {
    assert.equal(verifySignature(BODY, signatureHeader([SECRET], T, BODY), SECRET, 300, T), true);
  });

  it('When the secret is a different one, then it is rejected', () => {
    assert.equal(verifySignature(BODY, header, OTHER_SECRET, 300, T), false);
  });

  describe('rotation', () => {
    const rotated = signatureHeader([SECRET, OLD_SECRET], T, BODY);

    it('When the receiver holds the new secret, then the two-entry header verifies', () => {
      assert.equal(verifySignature(BODY, rotated, SECRET, 300, T), true);
    });

    it('When the receiver still holds the old secret, then the two-entry header verifies', () => {
      assert.equal(verifySignature(BODY, rotated, OLD_SECRET, 300, T), true);
    });

    it('When the receiver holds a third secret, then the two-entry header is rejected', () => {
      assert.equal(verifySignature(BODY, rotated, OTHER_SECRET, 300, T), false);
    });

    it('When a garbage v1 comes before the matching one, then the matching one still counts', () => {
      const h = `t=${T},v1=zz,v1=${independentHmac(OLD_SECRET, T, BODY)}`;
      assert.equal(verifySignature(BODY, h, OLD_SECRET, 300, T), true);
    });
  });

  describe('body', () => {
    it('When one character of the body is changed, then it is rejected', () => {
      assert.equal(verifySignature(BODY.replace('12.500', '12.501'), header, SECRET, 300, T), false);
    });

    it('When the body is parsed and re-serialised, then it is rejected because the bytes changed', () => {
      const reserialised = JSON.stringify(JSON.parse(BODY), null, 2);
      assert.equal(verifySignature(reserialised, header, SECRET, 300, T), false);
    });

    it('When the body is given as a Buffer of the same bytes, then it verifies like the string', () => {
      assert.equal(verifySignature(Buffer.from(BODY, 'utf8'), header, SECRET, 300, T), true);
    });

    it('When the body is given as a Uint8Array of the same bytes, then it verifies like the string', () => {
      assert.equal(verifySignature(new Uint8Array(Buffer.from(BODY, 'utf8')), header, SECRET, 300, T), true);
    });

    it('When the Buffer body has one byte flipped, then it is rejected', () => {
      const bytes = Buffer.from(BODY, 'utf8');
      bytes.writeUInt8(bytes.readUInt8(bytes.length - 2) ^ 1, bytes.length - 2);
      assert.equal(verifySignature(bytes, header, SECRET, 300, T), false);
    });

    it('When the body is a parsed object instead of raw bytes, then it throws a TypeError naming the mistake', () => {
      assert.throws(
        () => verifySignature(JSON.parse(BODY) as unknown as string, header, SECRET, 300, T),
        /raw request body/,
      );
    });
  });

  describe('timestamp tolerance', () => {
    it('When the default tolerance is read, then it is 300 seconds', () => {
      assert.equal(DEFAULT_TOLERANCE_SECONDS, 300);
    });

    it('When t is exactly the tolerance in the past, then it is accepted', () => {
      assert.equal(verifySignature(BODY, header, SECRET, 300, T + 300), true);
    });

    it('When t is exactly the tolerance in the future, then it is accepted', () => {
      assert.equal(verifySignature(BODY, header, SECRET, 300, T - 300), true);
    });

    it('When t is one second older than the tolerance, then it is rejected as stale', () => {
      assert.equal(verifySignature(BODY, header, SECRET, 300, T + 301), false);
    });

    it('When t is one second further ahead than the tolerance, then it is rejected as future', () => {
      assert.equal(verifySignature(BODY, header, SECRET, 300, T - 301), false);
    });

    it('When a custom tolerance is given, then it replaces the default', () => {
      assert.equal(verifySignature(BODY, header, SECRET, 10, T + 11), false);
      assert.equal(verifySignature(BODY, header, SECRET, 1000, T + 900), true);
    });

    it('When no tolerance or clock is passed, then a fresh header verifies against the real clock', () => {
      const now = Math.floor(Date.now() / 1000);
      assert.equal(verifySignature(BODY, signatureHeader([SECRET], now, BODY), SECRET), true);
      assert.equal(verifySignature(BODY, signatureHeader([SECRET], now - 301, BODY), SECRET), false);
    });

    it('When the tolerance is NaN, then it fails closed', () => {
      assert.equal(verifySignature(BODY, header, SECRET, Number.NaN, T), false);
    });
  });

  describe('malformed headers', () => {
    const sig = independentHmac(SECRET, T, BODY);
    const malformed: ReadonlyArray<readonly [string, string]> = [
      ['is empty', ''],
      ['has t=abc', `t=abc,v1=${sig}`],
      ['has no t', `v1=${sig}`],
      ['has an empty t', `t=,v1=${sig}`],
      ['has a fractional t', `t=${T}.0,v1=${sig}`],
      ['has a negative t', `t=-${T},v1=${sig}`],
      ['has a t with a leading zero', `t=0${T},v1=${sig}`],
      ['has t twice', `t=${T},t=${T},v1=${sig}`],
      ['has a t beyond a safe integer', `t=99999999999999999999,v1=${sig}`],
      ['has no v1', `t=${T}`],
      ['has only a v0', `t=${T},v0=${sig}`],
      ['has a space after the comma', `t=${T}, v1=${sig}`],
      ['has spaces around =', `t = ${T},v1=${sig}`],
      ['has a trailing comma', `t=${T},v1=${sig},`],
      ['has an entry without =', `t=${T},v1=${sig},junk`],
      ['is plain garbage', 'not a signature header'],
      ['is only commas', ',,,'],
      ['has capitalised keys', `T=${T},V1=${sig}`],
    ];
    for (const [label, value] of malformed) {
      it(`When the header ${label}, then verify returns false without throwing`, () => {
        assert.equal(verifySignature(BODY, value, SECRET, 300, T), false);
        assert.equal(parseSignatureHeader(value), undefined);
      });
    }

    it('When the header is not a string at all, then verify returns false without throwing', () => {
      assert.equal(verifySignature(BODY, undefined as unknown as string, SECRET, 300, T), false);
      assert.equal(verifySignature(BODY, ['t=1'] as unknown as string, SECRET, 300, T), false);
    });

    it('When an unknown v0 entry sits beside a valid v1, then it is ignored and the header verifies', () => {
      assert.equal(verifySignature(BODY, `t=${T},v0=deadbeef,v1=${sig}`, SECRET, 300, T), true);
    });

    it('When the v1 value is the right signature in uppercase hex, then it is rejected since only lowercase is issued', () => {
      assert.equal(verifySignature(BODY, `t=${T},v1=${sig.toUpperCase()}`, SECRET, 300, T), false);
    });

    for (const [label, candidate] of [
      ['empty', ''],
      ['one character short', sig.slice(0, -1)],
      ['one character long', `${sig}0`],
      ['a prefix of the signature', sig.slice(0, 32)],
      ['non-hex of the right length', 'g'.repeat(64)],
      ['multi-byte text of the right length', 'é'.repeat(64)],
    ] as const) {
      it(`When the v1 value is ${label}, then it is not a match and nothing throws`, () => {
        assert.equal(verifySignature(BODY, `t=${T},v1=${candidate}`, SECRET, 300, T), false);
      });
    }

    it('When the secret is empty, then verify throws rather than accept signatures made with an empty key', () => {
      const emptyKeyHeader = `t=${T},v1=${independentHmac('', T, BODY)}`;
      assert.throws(() => verifySignature(BODY, emptyKeyHeader, '', 300, T), TypeError);
    });
  });
});

describe('parseSignatureHeader', () => {
  it('When the header has a rotation pair, then the timestamp and both v1 values come back in order', () => {
    assert.deepEqual(parseSignatureHeader(`t=${T},v1=aa,v0=cc,v1=bb`), { timestamp: T, signatures: ['aa', 'bb'] });
  });

  it('When t comes after the v1 entries, then it is still read', () => {
    assert.deepEqual(parseSignatureHeader(`v1=aa,t=${T}`), { timestamp: T, signatures: ['aa'] });
  });
});

describe('constructEvent', () => {
  const body = JSON.stringify({ id: 'evt_1', event: 'session.succeeded', created_at: '2026-11-25T09:00:00.000Z', data: { id: 'ps_1', amount: '12.500' } });
  const now = 1_764_061_200;
  const webhooks = new Webhooks();
  const header = signatureHeader(['whsec_a'], now, body);

  it('when the signature verifies, then the typed event is returned, from a string or a Buffer body', () => {
    assert.equal(webhooks.constructEvent(body, header, 'whsec_a', { nowSeconds: now }).data.id, 'ps_1');
    assert.equal(webhooks.constructEvent(Buffer.from(body), header, 'whsec_a', { nowSeconds: now }).id, 'evt_1');
  });

  it('when the secret is another, the signature older than the tolerance given, or the header missing or malformed, then it throws SignatureVerificationError', () => {
    assert.equal(webhooks.constructEvent(body, header, 'whsec_a', { nowSeconds: now + 60, tolerance: 60 }).id, 'evt_1');
    assert.throws(() => webhooks.constructEvent(body, header, 'whsec_other', { nowSeconds: now }), SignatureVerificationError);
    assert.throws(() => webhooks.constructEvent(body, header, 'whsec_a', { nowSeconds: now + 61, tolerance: 60 }), SignatureVerificationError);
    assert.throws(() => webhooks.constructEvent(body, undefined, 'whsec_a'), SignatureVerificationError);
    assert.throws(() => webhooks.constructEvent(body, `t=${now}, v1=abc`, 'whsec_a', { nowSeconds: now }), SignatureVerificationError);
  });
});
