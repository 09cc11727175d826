/**
 * Which connector takes an order's payment, and as whom it is called
 * (D26): cards go to the acquirer on the merchant's terminal, wallet payments
 * to Flouci with the merchant's application. Test mode always uses the
 * sandbox's. A new payment is started on the account the merchant has now
 * (resolveAccount); everything done afterwards with a payment (its status, a
 * capture, a void, a refund) uses the account it was started on
 * (orderAccount), even when the merchant's keys changed since. Everything past
 * this point speaks the neutral Connector interface, never a connector's own
 * names.
 */
import type { Connector, PaymentMethodType, Terminal } from '../acquirer/acquirer.js';
import type { OrderRow } from '../db/order.repository.js';
import type { WalletAccount } from '../db/wallet-account.repository.js';
import type { AdapterDeps } from './deps.js';
import { resolveTerminal, type ResolvedTerminal } from './terminals.js';

/** An account a payment can be made on; for a live wallet payment, the merchant's application it is made with. */
export type ResolvedAccount = ResolvedTerminal & { walletAccountId?: string };

/** The connector of payments made so. */
export function connectorFor(deps: Pick<AdapterDeps, 'acquirer' | 'flouci'>, method: PaymentMethodType): Connector {
  return method === 'flouci' ? deps.flouci : deps.acquirer;
}

/** The account a new payment of the merchant's made so is started on, when it can take one. */
export async function resolveAccount(deps: AdapterDeps, method: PaymentMethodType, merchantId: string, livemode: boolean): Promise<ResolvedAccount> {
  if (method === 'card') return resolveTerminal(deps, merchantId, livemode);
  if (!livemode) return { status: 'active', terminal: deps.wallet.sandbox };
  const account = await deps.walletAccounts.current(merchantId);
  return account ? { status: 'active', terminal: walletTerminal(deps, account), walletAccountId: account.id } : { status: 'missing' };
}

/**
 * The account an order's payment was started on: a card's terminal (as
 * resolveTerminal finds it), test mode's sandbox, or the live application the
 * wallet payment was made with, retired or refused since alike.
 */
export async function orderAccount(deps: AdapterDeps, order: Pick<OrderRow, 'payment_method_type' | 'merchant_id' | 'livemode' | 'wallet_account_id'>): Promise<ResolvedTerminal> {
  if (order.payment_method_type === 'card') return resolveTerminal(deps, order.merchant_id, order.livemode);
  if (!order.livemode) return { status: 'active', terminal: deps.wallet.sandbox };
  const account = order.wallet_account_id === null ? undefined : await deps.walletAccounts.byId(order.merchant_id, order.wallet_account_id);
  return account ? { status: 'active', terminal: walletTerminal(deps, account) } : { status: 'missing' };
}

/** A merchant's live Flouci application as its connector is called with it: the public key as the user, the private key as the password. */
function walletTerminal(deps: Pick<AdapterDeps, 'wallet'>, account: Pick<WalletAccount, 'publicKey' | 'privateKey'>): Terminal {
  return { baseUrl: deps.wallet.liveUrl, userName: account.publicKey, password: account.privateKey };
}
