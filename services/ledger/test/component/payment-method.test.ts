/**
 * How the buyer paid, kept by the ledger (D26) against a real PostgreSQL:
 * what the money events name is written with each balance transaction and
 * answered by the list the API and the exports read, a Flouci payment's and
 * its refunds' as flouci.
 */
import assert from 'node:assert/strict';
import { checkCommandReply, type ApiContext } from '@gateway/contracts';
import { createPool, type Pool } from '@gateway/db';
import { createTestDatabase, type TestDatabase } from '@gateway/testkit';
import { LedgerRepository } from '../../src/db/ledger.repository.js';
import { paymentMovement, refundMovements } from '../../src/domain/movements.js';
import { listTransactions, type LedgerDeps } from '../../src/domain/read-ledger.js';
import { recordMovements } from '../../src/domain/record-movements.js';
import { refundData, succeededData } from '../support/money-events.js';

const AT = new Date('2026-11-26T10:00:00Z');
const MERCHANT = 'mer_AAAAAAAAAAAAAAAAAAAAAAAA';
const FLOUCI = { method: 'flouci', card_brand: 'flouci', card_last_four: '', card_country: '', fee_amount: '0.300', net_amount: '9.700' };

describe('The method of each balance transaction (D26)', function () {
  this.timeout(120_000);
  let db: TestDatabase;
  let pool: Pool;
  let deps: LedgerDeps;
  const context: ApiContext = { merchant_id: MERCHANT, livemode: false, order_prefix: 'A', merchant_name: 'Shop', request_id: 'req_ledger_method' };

  before(async () => {
    db = await createTestDatabase(['ledger']);
    pool = createPool({ url: db.urlFor('ledger'), schema: 'ledger', max: 2 });
    deps = { ledger: new LedgerRepository(pool), clock: () => AT, ownsSession: async () => true };
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('when one session is paid by card and another with Flouci, and the Flouci one is refunded, then the list names card for the one and flouci for the payment and refund of the other', async () => {
    const card = succeededData({ id: 'ps_CARDCARDCARDCARDCARDCARD', amount: '20.000' });
    const wallet = { id: 'ps_FLOUCIFLOUCIFLOUCIFLOUC', amount: '10.000', paid_at: '2026-11-26T09:00:00.000Z', payment: FLOUCI };
    const movements = [paymentMovement(card, AT), paymentMovement(succeededData(wallet), AT), ...refundMovements('refund.created', refundData('4.000', 'succeeded', wallet), AT)];
    assert.equal((await recordMovements(deps.ledger, movements, 2))?.length, 3);

    const list = await listTransactions(deps, context, {});
    // The answer the API and the exports get passes the list command's contract.
    checkCommandReply('ledger.list_transactions', list);
    assert.deepEqual(
      list.data.map((t) => [t.type, t.session_id, t.amount, t.payment_method]).sort(),
      [
        ['payment', 'ps_CARDCARDCARDCARDCARDCARD', '20.000', 'card'],
        ['payment', 'ps_FLOUCIFLOUCIFLOUCIFLOUC', '10.000', 'flouci'],
        ['refund', 'ps_FLOUCIFLOUCIFLOUCIFLOUC', '-4.000', 'flouci'],
      ],
    );
  });

  it('when an entry was written before the method was kept, then it reads as a card payment', async () => {
    await db.query(
      `INSERT INTO ledger.balance_transactions (id, merchant_id, livemode, type, session_id, source, amount, fee, net, created_at, day, available_on)
       VALUES ('txn_OLDOLDOLDOLDOLDOLDOLDOLD', 'mer_BBBBBBBBBBBBBBBBBBBBBBBB', false, 'payment', 'ps_OLDOLDOLDOLDOLDOLDOLDOL', 'ps_OLDOLDOLDOLDOLDOLDOLDOL', 5, 0, 5, $1, '2026-11-26', '2026-11-28')`,
      [AT],
    );
    const list = await listTransactions(deps, { ...context, merchant_id: 'mer_BBBBBBBBBBBBBBBBBBBBBBBB' }, {});
    assert.deepEqual(list.data.map((t) => t.payment_method), ['card']);
  });
});
