/** The ledger service's command queue: the API's and the dashboard's reads of balance transactions, the balance and the daily report. */
import type { CommandHandlers } from '@gateway/messaging';
import { dailyReport, listTransactions, readBalance, type LedgerDeps } from '../domain/read-ledger.js';

/** The command table: each command calls one use case. */
export function ledgerCommands(deps: LedgerDeps): CommandHandlers {
  return {
    'ledger.list_transactions': async ({ context, query, page_size }) => ({ body: await listTransactions(deps, context, query, page_size) }),
    'ledger.balance': async ({ context }) => ({ body: await readBalance(deps, context) }),
    'ledger.daily_report': async ({ context, query }) => ({ body: await dailyReport(deps, context, query) }),
  };
}
