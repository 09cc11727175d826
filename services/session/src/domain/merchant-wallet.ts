/**
 * Whether a merchant's live Flouci is connected (D26), as the session service
 * keeps it: from the acquirer-adapter's wallet.connected, announced each time
 * the merchant's owner saves or removes the keys. The hosted page of a live
 * session offers Flouci only when it is (checkout.view). One change
 * (apply-once, packages/messaging) keyed on the merchant and the event's time:
 * the newest announcement wins, a redelivered or late one changes nothing.
 */
import type { Change } from '@gateway/messaging';
import type { MerchantWalletRepository } from '../db/merchant-wallet.repository.js';

export interface MerchantWallet {
  merchantId: string;
  flouciLive: boolean;
}

/** The change; it answers what it recorded. */
export type MerchantWalletChange = Change<'wallet.connected', MerchantWallet, MerchantWallet>;

/** Records what an announcement of `at` says, unless a newer one is recorded; what it recorded when it changed anything. */
export async function recordWallet(wallets: MerchantWalletRepository, wallet: MerchantWallet, at: Date): Promise<MerchantWallet | undefined> {
  return (await wallets.set(wallet.merchantId, wallet.flouciLive, at)) ? wallet : undefined;
}
