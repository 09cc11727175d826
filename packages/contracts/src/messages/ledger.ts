/**
 * The ledger service's messages (D21): the balance transactions of a merchant
 * and mode, its balance and its daily report, all read from what the ledger
 * wrote as payments and refunds were announced. It publishes no event.
 */
import { Type } from '@sinclair/typebox';
import { Balance, BalanceTransactionList, DailyReport } from '../api.js';
import { ApiContext, type CommandContract, ExportPageSize } from './common.js';

/** The commands the ledger service runs. */
export const ledgerCommands = {
  'ledger.list_transactions': {
    service: 'ledger',
    request: Type.Object({ context: ApiContext, query: Type.Record(Type.String(), Type.Unknown()), page_size: ExportPageSize }),
    reply: BalanceTransactionList,
  },
  'ledger.balance': { service: 'ledger', request: Type.Object({ context: ApiContext }), reply: Balance },
  'ledger.daily_report': { service: 'ledger', request: Type.Object({ context: ApiContext, query: Type.Record(Type.String(), Type.Unknown()) }), reply: DailyReport },
} as const satisfies Record<string, CommandContract>;
