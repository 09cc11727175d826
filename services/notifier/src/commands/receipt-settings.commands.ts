/** The merchant's receipts switch per mode (D20), read and set from the dashboard's Settings page. */
import type { CommandHandlers } from '@gateway/messaging';
import type { ReceiptSettingsRepository } from '../db/receipt-settings.repository.js';

export function receiptSettingsCommands(settings: ReceiptSettingsRepository, clock: () => Date = () => new Date()): CommandHandlers {
  return {
    'receipts.settings.get': async ({ merchant_id, mode }) => ({
      body: { merchant_id, mode, receipts_enabled: await settings.receiptsEnabled(merchant_id, mode === 'live') },
    }),
    'receipts.settings.set': async ({ merchant_id, mode, receipts_enabled }) => ({
      body: { merchant_id, mode, receipts_enabled: await settings.setReceiptsEnabled(merchant_id, mode === 'live', receipts_enabled, clock()) },
    }),
  };
}
