/**
 * Which connector takes an order's payment, and as whom it is called
 * (D26): cards go to the acquirer on the merchant's terminal, wallet payments
 * to Flouci with the merchant's application. Test mode always uses the
 * sandbox's. Everything past this point speaks the neutral Connector
 * interface, never a connector's own names.
 */
import type { Connector, PaymentMethodType, Terminal } from '../acquirer/acquirer.js';
import type { AdapterDeps } from './deps.js';
import { resolveTerminal, type ResolvedTerminal } from './terminals.js';

/** The connector of payments made so. */
export function connectorFor(deps: Pick<AdapterDeps, 'acquirer' | 'flouci'>, method: PaymentMethodType): Connector {
  return method === 'flouci' ? deps.flouci : deps.acquirer;
}

/** The account a payment of the merchant's made so is taken on, when it can take one. */
export async function resolveAccount(deps: AdapterDeps, method: PaymentMethodType, merchantId: string, livemode: boolean): Promise<ResolvedTerminal> {
  if (method === 'card') return resolveTerminal(deps, merchantId, livemode);
  if (!livemode) return { status: 'active', terminal: deps.wallet.sandbox };
  const account = await deps.walletAccounts.find(merchantId);
  return account ? { status: 'active', terminal: walletTerminal(deps, account) } : { status: 'missing' };
}

/** A merchant's live Flouci application as its connector is called with it: the public key as the user, the private key as the password. */
export function walletTerminal(deps: Pick<AdapterDeps, 'wallet'>, account: { publicKey: string; privateKey: string }): Terminal {
  return { baseUrl: deps.wallet.liveUrl, userName: account.publicKey, password: account.privateKey };
}
