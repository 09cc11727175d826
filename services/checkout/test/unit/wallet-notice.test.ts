/**
 * Flouci's notices (D26): which bodies are notices, what the adapter is asked
 * (the attempt alone, whatever the notice says), and the route's answers
 * (JSON only) over a loopback server, with a fake adapter.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import type { CommandReply, CommandRequest } from '@gateway/contracts';
import { RpcTimeoutError } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import { readWalletNotice, takeWalletNotice, type WalletNoticeDeps } from '../../src/domain/wallet-notice.js';
import { MinuteCounter } from '../../src/http/minute-counter.js';
import { addWalletNoticeRoutes } from '../../src/http/wallet-notice.routes.js';

const ATTEMPT = `pa_${'A'.repeat(22)}`;

interface Logged {
  level: string;
  fields: Record<string, unknown>;
  message: string;
}

/** Deps whose adapter answers payment.verify with `answer` (or throws it), recording the requests and the log. */
function noticeDeps(answer: () => Promise<CommandReply<'payment.verify'>>): { deps: WalletNoticeDeps; asked: { request: CommandRequest<'payment.verify'>; timeoutMs: number }[]; logged: Logged[] } {
  const asked: { request: CommandRequest<'payment.verify'>; timeoutMs: number }[] = [];
  const logged: Logged[] = [];
  const record = (level: string) => (fields: Record<string, unknown>, message: string) => logged.push({ level, fields, message });
  const log = { info: record('info'), warn: record('warn'), error: record('error'), debug: record('debug') } as unknown as Logger;
  const deps: WalletNoticeDeps = {
    verify: async (request, timeoutMs) => {
      asked.push({ request, timeoutMs });
      return answer();
    },
    verifyTimeoutMs: 4_000,
    log,
  };
  return { deps, asked, logged };
}

describe("Flouci's notices", () => {
  describe('which bodies are notices', () => {
    it('When the body has a payment id and a status word, then it is a notice; other fields are ignored', () => {
      assert.deepEqual(readWalletNotice({ payment_id: 'JMc5tjsBTEiaWWpPBTOa8A', status: 'SUCCESS' }), { paymentId: 'JMc5tjsBTEiaWWpPBTOa8A', status: 'SUCCESS' });
      assert.deepEqual(readWalletNotice({ payment_id: 'p', status: 'pending', amount: 1 }), { paymentId: 'p', status: 'pending' });
    });

    it('When the body is not an object, lacks a field, has one of another type, too long, or a status that is not a word, then it is no notice', () => {
      const refused: unknown[] = [
        undefined,
        null,
        'SUCCESS',
        [{ payment_id: 'p', status: 'SUCCESS' }],
        {},
        { payment_id: 'p' },
        { status: 'SUCCESS' },
        { payment_id: '', status: 'SUCCESS' },
        { payment_id: 42, status: 'SUCCESS' },
        { payment_id: 'p', status: 1 },
        { payment_id: 'p', status: '' },
        { payment_id: 'p', status: 'SUCCESS\nforged log line' },
        { payment_id: 'p', status: 'S'.repeat(33) },
        { payment_id: 'p'.repeat(257), status: 'SUCCESS' },
      ];
      for (const body of refused) assert.equal(readWalletNotice(body), undefined, JSON.stringify(body));
    });
  });

  describe('what a notice does', () => {
    it("When a notice comes, then the adapter verifies the attempt the address names, with nothing of the notice; the log names the attempt and the notice's status only", async () => {
      const { deps, asked, logged } = noticeDeps(async () => ({ outcome: 'approved' }));
      await takeWalletNotice(deps, ATTEMPT, { paymentId: 'secret-looking-payment-id', status: 'SUCCESS' });
      assert.deepEqual(asked, [{ request: { attempt_id: ATTEMPT }, timeoutMs: 4_000 }]);
      assert.equal(logged.length, 1);
      assert.deepEqual(logged[0]?.fields, { attemptId: ATTEMPT, noticeStatus: 'SUCCESS', outcome: 'approved' });
      assert.doesNotMatch(JSON.stringify(logged), /secret-looking-payment-id/);
    });

    it('When the verification fails or takes too long, then a warning is logged and the notice is taken all the same', async () => {
      for (const failure of [new RpcTimeoutError('payment.verify', 4_000), new AppError('not-found', 'No wallet attempt with this id.'), new Error('broker down')]) {
        const { deps, logged } = noticeDeps(async () => Promise.reject(failure));
        await takeWalletNotice(deps, ATTEMPT, { paymentId: 'p', status: 'FAILURE' });
        assert.deepEqual(logged.map((line) => [line.level, line.fields['attemptId'], line.fields['noticeStatus']]), [['warn', ATTEMPT, 'FAILURE']]);
      }
    });
  });

  describe('counting per address', () => {
    it('When an address posts within a minute, then its count grows; a new minute starts every count again', () => {
      const counter = new MinuteCounter();
      const minute = Date.UTC(2030, 0, 1, 12, 0);
      assert.deepEqual([counter.count('a', minute), counter.count('a', minute + 59_999), counter.count('b', minute + 1)], [1, 2, 1]);
      assert.equal(counter.count('a', minute + 60_000), 1);
    });

    it('When more addresses than the counter keeps post in one minute, then the newcomers share one count, and memory stays bounded', () => {
      const counter = new MinuteCounter(2);
      const now = Date.UTC(2030, 0, 1);
      assert.deepEqual(['a', 'b', 'c', 'd', 'a'].map((address) => counter.count(address, now)), [1, 1, 1, 2, 2]);
    });

    it('When asked how long until the counts start again, then the whole seconds left in the minute, at least 1', () => {
      const minute = Date.UTC(2030, 0, 1, 12, 0);
      assert.deepEqual([MinuteCounter.retryAfterSeconds(minute), MinuteCounter.retryAfterSeconds(minute + 59_500), MinuteCounter.retryAfterSeconds(minute + 30_200)], [60, 1, 30]);
    });
  });

  describe('the route', () => {
    let server: Server;
    let base: string;
    let adapter: ReturnType<typeof noticeDeps>;
    let answer: () => Promise<CommandReply<'payment.verify'>>;
    /** The route's clock: half past a minute, so that a whole test runs within one. */
    let now = Date.UTC(2030, 0, 1, 12, 0, 30);

    before(async () => {
      answer = async () => ({ outcome: 'pending' });
      adapter = noticeDeps(() => answer());
      const app = express();
      addWalletNoticeRoutes(app, adapter.deps, adapter.deps.log, { trustProxyHops: 1, noticesPerAddressPerMinute: 5, clock: () => new Date(now) });
      // What the hosted page's routes would answer next: a page.
      app.use((_req, res) => void res.status(404).type('text/html').send('<p>page</p>'));
      server = app.listen(0, '127.0.0.1');
      await new Promise<void>((resolve) => server.once('listening', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/checkout/wallet-notices`;
    });
    after(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    /** A POST from client `address` (told by the proxy of ours the route trusts). */
    async function post(path: string, body: string, address: string, contentType = 'application/json'): Promise<{ status: number; type: string | null; json: unknown; headers: Headers }> {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': contentType, 'x-forwarded-for': address }, body });
      return { status: res.status, type: res.headers.get('content-type'), json: await res.json(), headers: res.headers };
    }

    it('When a well-formed notice comes, then 200 {"received":true} in JSON once the adapter was asked about the attempt', async () => {
      const before = adapter.asked.length;
      const res = await post(`/flouci/${ATTEMPT}`, JSON.stringify({ payment_id: 'f1', status: 'SUCCESS' }), '197.0.0.1');
      assert.deepEqual([res.status, res.type, res.json], [200, 'application/json; charset=utf-8', { received: true }]);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.deepEqual(adapter.asked.slice(before), [{ request: { attempt_id: ATTEMPT }, timeoutMs: 4_000 }]);
    });

    it('When the verification fails, then the notice is still answered 200, so that Flouci does not post it again', async () => {
      answer = async () => Promise.reject(new RpcTimeoutError('payment.verify', 4_000));
      try {
        const res = await post(`/flouci/${ATTEMPT}`, JSON.stringify({ payment_id: 'f1', status: 'PENDING' }), '197.0.0.2');
        assert.deepEqual([res.status, res.json], [200, { received: true }]);
      } finally {
        answer = async () => ({ outcome: 'pending' });
      }
    });

    it('When the body is not a notice (not JSON, another type, over 2 KiB, another charset, fields missing), then 400 in JSON and the adapter is not asked', async () => {
      const before = adapter.asked.length;
      const bodies: [string, string][] = [
        ['{"payment_id":', 'application/json'],
        ['payment_id=f1&status=SUCCESS', 'application/x-www-form-urlencoded'],
        [JSON.stringify({ payment_id: 'f1', status: 'SUCCESS', filler: 'x'.repeat(2_100) }), 'application/json'],
        [JSON.stringify({ payment_id: 'f1', status: 'SUCCESS' }), 'application/json; charset=iso-8859-1'],
        [JSON.stringify({ payment_id: 'f1' }), 'application/json'],
        ['"SUCCESS"', 'application/json'],
        ['', 'application/json'],
      ];
      for (const [i, [body, type]] of bodies.entries()) {
        const res = await post(`/flouci/${ATTEMPT}`, body, `197.0.1.${i}`, type);
        assert.deepEqual([res.status, res.type, res.json], [400, 'application/json; charset=utf-8', { error: 'invalid-notice' }], body.slice(0, 40));
      }
      assert.equal(adapter.asked.length, before);
    });

    it('When the path names no attempt of ours, another wallet or another method, then 404 in JSON, never a page', async () => {
      const notice = JSON.stringify({ payment_id: 'f1', status: 'SUCCESS' });
      for (const [i, path] of ['/flouci/pa_short', '/flouci/notanattempt', `/other/${ATTEMPT}`, `/flouci/${ATTEMPT}/more`, `/FLOUCI/${ATTEMPT}`, ''].entries()) {
        const res = await post(path, notice, `197.0.2.${i}`);
        assert.deepEqual([res.status, res.json], [404, { error: 'not-found' }], path);
      }
      const get = await fetch(`${base}/flouci/${ATTEMPT}`, { headers: { 'x-forwarded-for': '197.0.2.9' } });
      assert.deepEqual([get.status, await get.json()], [404, { error: 'not-found' }]);
    });

    it('When one address (an IPv6 one by its /64) posts more than the limit in a minute, then 429 in JSON with Retry-After, while another address is still taken; the next minute it is taken again', async () => {
      const notice = JSON.stringify({ payment_id: 'f1', status: 'SUCCESS' });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await post(`/flouci/${ATTEMPT}`, notice, '2001:db8:1:2::7')).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
      const limited = await post(`/flouci/${ATTEMPT}`, notice, '2001:db8:1:2::8');
      assert.deepEqual([limited.status, limited.type, limited.json, limited.headers.get('retry-after')], [429, 'application/json; charset=utf-8', { error: 'rate-limit-exceeded' }, '30']);
      assert.equal((await post(`/flouci/${ATTEMPT}`, notice, '197.0.3.1')).status, 200);
      now += 60_000;
      assert.equal((await post(`/flouci/${ATTEMPT}`, notice, '2001:db8:1:2::7')).status, 200);
    });
  });
});
