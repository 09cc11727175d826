/** The D8, D24 and D30 test cards: each is a valid card number, found by its number; any other number is not one. */
import assert from 'node:assert/strict';
import { findTestCard, luhnValid, TEST_CARDS } from '../../src/index.js';

describe('Test cards', () => {
  it('when a D8 test card number is looked up, then it is found, and every test card passes the Luhn check', () => {
    for (const number of ['4242424242424242', '5555555555554444', '4000000000003220', '4000000000000002', '4000000000000036', '4000000000007007', '4000000000003238', '4000000000003063', '4000000000003246', '4000000000006983']) {
      assert.ok(findTestCard(number), number);
    }
    for (const card of TEST_CARDS) assert.ok(luhnValid(card.number), card.number);
  });

  it('when the table is read, then no number and no label appears twice, and the capture cards have their behaviours', () => {
    assert.equal(new Set(TEST_CARDS.map((card) => card.number)).size, TEST_CARDS.length);
    assert.equal(new Set(TEST_CARDS.map((card) => card.label)).size, TEST_CARDS.length);
    assert.equal(findTestCard('4000000000007007')?.behaviour, 'approve_capture_refused');
    assert.equal(findTestCard('4000000000007015')?.behaviour, 'approve_capture_unconfirmed');
    assert.equal(findTestCard('4000000000007023')?.behaviour, 'approve_capture_silently');
  });

  it('when the D30 cards are looked up, then each has its 3-D Secure or refund behaviour', () => {
    assert.equal(findTestCard('4000000000003220')?.behaviour, 'challenge_3ds2', 'D8\'s challenge card is 3-D Secure 2 now');
    assert.equal(findTestCard('4000000000003238')?.behaviour, 'frictionless_3ds2');
    assert.equal(findTestCard('4000000000003063')?.behaviour, 'challenge_3ds1');
    assert.equal(findTestCard('4000000000003246')?.behaviour, 'authentication_refused');
    assert.equal(findTestCard('4000000000006983')?.behaviour, 'approve_reverse_refused');
  });

  it('when the D24 cards are looked up, then each approves on the page and has its own off-session behaviour, and its label says so', () => {
    const insufficient = findTestCard('4000000000003055');
    const authentication = findTestCard('4000002760003184');
    assert.equal(insufficient?.behaviour, 'approve_off_session_insufficient_funds');
    assert.equal(authentication?.behaviour, 'approve_off_session_authentication_required');
    assert.match(insufficient?.label ?? '', /without the buyer.*insufficient funds/);
    assert.match(authentication?.label ?? '', /without the buyer.*authentication required/);
  });

  it('when any other Luhn-valid number is looked up, then it is not a test card (live mode sends it on)', () => {
    assert.ok(luhnValid('4111111111111111'));
    assert.equal(findTestCard('4111111111111111'), undefined);
  });
});
