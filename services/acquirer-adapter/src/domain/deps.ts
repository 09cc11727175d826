/** What the adapter's use cases need from the outside world. */
import type { CardOpener } from '@gateway/card-sealing';
import type { Pricing } from '@gateway/money';
import type { Logger } from '@gateway/observability';
import type { CardConnector, Connector, Terminal } from '../acquirer/acquirer.js';
import type { BindingRepository } from '../db/binding.repository.js';
import type { OrderHoldRepository } from '../db/order-hold.repository.js';
import type { OrderThreeDSRepository } from '../db/order-three-ds.repository.js';
import type { OrderRepository } from '../db/order.repository.js';
import type { RefundOperationRepository } from '../db/refund-operation.repository.js';
import type { TerminalRepository } from '../db/terminal.repository.js';
import type { WalletAccountRepository } from '../db/wallet-account.repository.js';

export interface AdapterDeps {
  orders: OrderRepository;
  /** Two-phase orders' holds (D22). */
  holds: OrderHoldRepository;
  /** Orders' 3-D Secure steps (D30): the 3DS Method with its kept card, and the challenge. */
  threeDS: OrderThreeDSRepository;
  terminals: TerminalRepository;
  refunds: RefundOperationRepository;
  /** Saved cards' bindings at the acquirer (D24). */
  bindings: BindingRepository;
  /** Merchants' live Flouci applications (D26). */
  walletAccounts: WalletAccountRepository;
  /** The card acquirer's connector (ClicToPay). */
  acquirer: CardConnector;
  /** The wallet's connector (Flouci, D26). */
  flouci: Connector;
  cards: CardOpener;
  /** The built-in sandbox terminal every test-mode payment goes to. */
  sandbox: Terminal;
  /** The live acquirer's base URL. */
  liveUrl: string;
  /** D26: test mode's Flouci application (the sandbox's), live mode's API, and how long a buyer has on the wallet's page. */
  wallet: { sandbox: Terminal; liveUrl: string; timeoutSeconds: number };
  defaultPricing: Pricing;
  /**
   * The longest a refund operation can be in flight (one acquirer call and
   * its writes): a repeated command waits that long for its outcome.
   */
  refundInFlightMs: number;
  clock: () => Date;
  log: Logger;
  /** Called after a commit that enqueued events, so the outbox relay sends them now. */
  afterCommit: () => void;
}
