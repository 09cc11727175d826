/** The merchant's receipts switch per mode (D20), read and set from the dashboard's Settings page: until the merchant chooses, on in live mode, off in test mode (D29). */
import type { CommandReply, CommandRequest } from '@gateway/contracts';
import type { ReceiptSettingsRepository } from '../db/receipt-settings.repository.js';

export async function getReceiptSettings(settings: ReceiptSettingsRepository, { merchant_id, mode }: CommandRequest<'receipts.settings.get'>): Promise<CommandReply<'receipts.settings.get'>> {
  return { merchant_id, mode, receipts_enabled: await settings.receiptsEnabled(merchant_id, mode === 'live') };
}

export async function setReceiptSettings(
  settings: ReceiptSettingsRepository,
  { merchant_id, mode, receipts_enabled }: CommandRequest<'receipts.settings.set'>,
  now: Date,
): Promise<CommandReply<'receipts.settings.set'>> {
  return { merchant_id, mode, receipts_enabled: await settings.setReceiptsEnabled(merchant_id, mode === 'live', receipts_enabled, now) };
}
