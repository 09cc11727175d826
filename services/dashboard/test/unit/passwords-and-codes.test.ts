import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { hashPassword, verifyPassword } from '../../src/domain/passwords.js';
import { newRecoveryCodes, RECOVERY_CODE } from '../../src/domain/recovery-codes.js';
import { matchTotp, newTotpSecret, totpCode } from '../../src/domain/totp.js';

/** RFC 6238's SHA-1 seed, "12345678901234567890", in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('passwords, TOTP codes and recovery codes', () => {
  it('when a code is computed for the RFC 6238 test times, then it is the RFC value (last six digits)', () => {
    assert.equal(totpCode(RFC_SECRET, Math.floor(59 / 30)), '287082');
    assert.equal(totpCode(RFC_SECRET, Math.floor(1111111109 / 30)), '081804');
    assert.equal(totpCode(RFC_SECRET, Math.floor(2000000000 / 30)), '279037');
  });

  it('when a code is checked, then the current step and one either side pass, older ones and junk do not', () => {
    const secret = newTotpSecret();
    const at = 1_700_000_000_000;
    const step = Math.floor(at / 30_000);
    assert.equal(matchTotp(secret, totpCode(secret, step), at), step);
    assert.equal(matchTotp(secret, totpCode(secret, step - 1), at), step - 1);
    assert.equal(matchTotp(secret, totpCode(secret, step - 3), at), undefined);
    assert.equal(matchTotp(secret, 'abcdef', at), undefined);
  });

  it('when a password is hashed, then only that password verifies, and the hash names its cost', async () => {
    const hash = await hashPassword('correct horse battery', 1024);
    assert.match(hash, /^scrypt\$1024\$8\$1\$/);
    assert.equal(await verifyPassword('correct horse battery', hash), true);
    assert.equal(await verifyPassword('correct horse batterY', hash), false);
    assert.equal(await verifyPassword('x', 'not-a-hash'), false);
  });

  it('when recovery codes are made, then there are ten distinct ones of the shown form', () => {
    const codes = newRecoveryCodes();
    assert.equal(new Set(codes).size, 10);
    for (const code of codes) {
      assert.match(code, /^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/);
      assert.match(code, RECOVERY_CODE);
    }
  });
});
