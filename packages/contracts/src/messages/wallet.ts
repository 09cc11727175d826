/**
 * The acquirer-adapter's messages about merchants' live Flouci applications
 * (D26): the dashboard's Settings commands and wallet.connected.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { type CommandContract, DateTime, MerchantId, MerchantRef } from './common.js';

/**
 * D26: a merchant's live Flouci application as the dashboard shows it: whether
 * its keys are saved, its public key and when they were; never its private key.
 */
const WalletSettings = Type.Object({
  merchant_id: MerchantId,
  flouci: Type.Object({
    /** Whether live payments are started with the keys: saved, and not refused by Flouci. */
    connected: Type.Boolean(),
    /** Flouci refused the saved keys on a payment: none is started with them until keys are saved again. */
    rejected: Type.Boolean(),
    public_key: Type.Union([Type.String(), Type.Null()]),
    updated_at: Type.Union([DateTime, Type.Null()]),
  }),
});

/**
 * A Flouci application's keys, as the merchant typed them: the adapter checks
 * them (printable, at most 200 characters, no ':' in the public key) and
 * answers a validation problem, so the schema takes any text. The private key
 * crosses the broker sealed for the adapter alone (compact JWE, bound to
 * flouciKeyScope of the merchant), never in clear; writeOnly: never shown
 * back, left out of any audit.
 */
const FlouciKeys = Type.Object({ public_key: Type.String(), private_key_sealed: Type.String({ minLength: 1, maxLength: 4096, writeOnly: true }) });

/** What a merchant's sealed Flouci private key is bound to: it opens for that merchant's keys alone. */
export function flouciKeyScope(merchantId: string): string {
  return `flouci-private-key:${merchantId}`;
}

/** The commands of the merchant's Flouci keys, which the acquirer-adapter runs. */
export const walletCommands = {
  // The dashboard's Settings page sends these for its signed-in user's own merchant (the owner's role is checked there).
  'wallet.settings.get': { service: 'acquirer-adapter', request: MerchantRef, reply: WalletSettings },
  /** Saves the merchant's live Flouci keys, or removes them (`flouci: null`); wallet.connected announces either. */
  'wallet.settings.set': {
    service: 'acquirer-adapter',
    request: Type.Object({ merchant_id: MerchantId, flouci: Type.Union([FlouciKeys, Type.Null()]) }),
    reply: WalletSettings,
  },
} as const satisfies Record<string, CommandContract>;

/** wallet.connected, which the acquirer-adapter publishes. */
export const walletEvents = {
  /** The merchant's live Flouci keys were saved (connected), refused by Flouci or removed: whether the hosted page offers Flouci in live mode. */
  'wallet.connected': Type.Object({ merchant_id: MerchantId, livemode: Type.Literal(true), connected: Type.Boolean() }),
} as const satisfies Record<string, TSchema>;
