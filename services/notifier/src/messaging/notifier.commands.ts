/** The notifier's command queue (D20): the dashboard's mails to its people and the merchant's receipts switch, each command one use case. */
import type { CommandHandlers } from '@gateway/messaging';
import type { ReceiptSettingsRepository } from '../db/receipt-settings.repository.js';
import { mailInvitation, mailPasswordReset, type PeopleMailDeps } from '../domain/people-mails.js';
import { getReceiptSettings, setReceiptSettings } from '../domain/receipt-settings.js';

export function notifierCommands(deps: { peopleMails: PeopleMailDeps; receiptSettings: ReceiptSettingsRepository; clock: () => Date }): CommandHandlers {
  const { peopleMails, receiptSettings, clock } = deps;
  return {
    'mail.invitation': async (request) => ({ body: await mailInvitation(peopleMails, request) }),
    'mail.password_reset': async (request) => ({ body: await mailPasswordReset(peopleMails, request) }),
    'receipts.settings.get': async (request) => ({ body: await getReceiptSettings(receiptSettings, request) }),
    'receipts.settings.set': async (request) => ({ body: await setReceiptSettings(receiptSettings, request, clock()) }),
  };
}
