/** Log lines: secrets and card data redacted by key name at any depth; everything else as given. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger, redactSecrets, withCorrelation } from '../../src/index.js';

function capture(): { lines: Record<string, unknown>[]; stream: Writable } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

describe('logger', () => {
  it('when a line holds secrets or card data, at the top or nested in objects and arrays, then each is redacted and the rest kept', async () => {
    const { lines, stream } = capture();
    const log = createLogger({ service: 'probe', destination: stream });
    log.info(
      {
        password: 'hunter2',
        request: { headers: { authorization: 'Bearer sk_test_abc', 'x-service-signature': 'sig', accept: 'text/html' } },
        body: { card: { pan: '4242424242424242', cvc: '123' }, amount: '1.000' },
        endpoints: [{ url: 'https://shop.example', secret: 'whsec_1' }],
        status: 200,
      },
      'probe',
    );
    await new Promise((resolve) => setImmediate(resolve));
    const [line] = lines;
    assert.equal(line?.['password'], '[redacted]');
    assert.deepEqual(line?.['request'], { headers: { authorization: '[redacted]', 'x-service-signature': '[redacted]', accept: 'text/html' } });
    assert.deepEqual(line?.['body'], { card: '[redacted]', amount: '1.000' });
    assert.deepEqual(line?.['endpoints'], [{ url: 'https://shop.example', secret: '[redacted]' }]);
    assert.equal(line?.['status'], 200);
    const text = JSON.stringify(lines);
    for (const secret of ['hunter2', 'sk_test_abc', '4242424242424242', 'whsec_1']) assert.ok(!text.includes(secret), secret);
  });

  it('when a secret key is spelt in another case or with other separators (Authorization, cardNumber, the acquirer form\'s $PAN), or bound to a child logger, then it is redacted too', async () => {
    const { lines, stream } = capture();
    const log = createLogger({ service: 'probe', destination: stream });
    log.child({ Authorization: 'Bearer sk_live_child' }).child({ password: 'pw-grandchild' }).info(
      { headers: { Authorization: 'Bearer sk_test_upper' }, cardNumber: '4242424242424242', form: { $PAN: '5555555555554444', $CVC: '321', cvv: '999', MDORDER: 'o-1' } },
      'probe',
    );
    await new Promise((resolve) => setImmediate(resolve));
    const [line] = lines;
    assert.equal(line?.['Authorization'], '[redacted]');
    assert.equal(line?.['password'], '[redacted]');
    assert.deepEqual(line?.['headers'], { Authorization: '[redacted]' });
    assert.equal(line?.['cardNumber'], '[redacted]');
    assert.deepEqual(line?.['form'], { $PAN: '[redacted]', $CVC: '[redacted]', cvv: '[redacted]', MDORDER: 'o-1' });
    const text = JSON.stringify(lines);
    for (const secret of ['sk_live_child', 'pw-grandchild', 'sk_test_upper', '4242424242424242', '5555555555554444', '"321"', '"999"']) assert.ok(!text.includes(secret), secret);
  });

  it('when a line holds no secret, then it is the very object given, not a copy, and the correlation id is added', async () => {
    const plain = { method: 'GET', route: '/checkout/:token', nested: { status: 200, list: [1, 2] } };
    assert.equal(redactSecrets(plain), plain);
    const { lines, stream } = capture();
    const log = createLogger({ service: 'probe', destination: stream });
    withCorrelation('corr-7', () => log.info(plain, 'request'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lines[0]?.['correlationId'], 'corr-7');
    assert.deepEqual(lines[0]?.['nested'], plain.nested);
  });

  it('when the value given is not a plain object (an error, a buffer), then it is left alone', () => {
    const err = new Error('boom');
    const buffer = Buffer.from('password');
    assert.equal(redactSecrets(err), err);
    assert.equal(redactSecrets(buffer), buffer);
    assert.equal(redactSecrets('password'), 'password');
  });
});
