/** The acquirer adapter's command queue: each command calls one use case. */
import type { CommandHandlers } from '@gateway/messaging';
import type { SecretBox } from '@gateway/secrets';
import { authorizeSavedCard } from '../domain/authorize-saved-card.js';
import { chargeSavedCard } from '../domain/charge-saved-card.js';
import { authorizePayment } from '../domain/authorize-payment.js';
import { startWalletPayment, verifyWalletPayment } from '../domain/wallet-payment.js';
import { capturePayment } from '../domain/capture-payment.js';
import { checkPayment } from '../domain/check-payment.js';
import { finish3dsPayment } from '../domain/finish-3ds.js';
import { probeTerminal } from '../domain/probe-terminal.js';
import { refundPayment } from '../domain/refund-payment.js';
import { checkTerminal, getFees, getTerminal, setFees, setTerminal } from '../domain/terminals.js';
import { getWalletSettings, setWalletSettings } from '../domain/wallet-settings.js';
import type { AdapterDeps } from '../domain/deps.js';

/** The command table; `secrets` is the adapter's secret box, whose data keys an operator re-wraps. */
export function adapterCommands(deps: AdapterDeps, secrets: SecretBox): CommandHandlers {
  return {
    'payment.authorize': async (request, meta) => ({ body: await authorizePayment(deps, request, meta.correlationId) }),
    'payment.charge_saved': async (request, meta) => ({ body: await chargeSavedCard(deps, request, meta.correlationId) }),
    'payment.authorize_saved': async (request, meta) => ({ body: await authorizeSavedCard(deps, request, meta.correlationId) }),
    'payment.start_wallet': async (request, meta) => ({ body: await startWalletPayment(deps, request, meta.correlationId) }),
    'payment.verify': async (request, meta) => ({ body: await verifyWalletPayment(deps, request, meta.correlationId) }),
    'payment.finish_3ds': async (request, meta) => ({ body: await finish3dsPayment(deps, request, meta.correlationId) }),
    'payment.check': async (request, meta) => ({ body: await checkPayment(deps, request, meta.correlationId) }),
    'payment.refund': async (request) => ({ body: await refundPayment(deps, request) }),
    'payment.capture': async (request, meta) => ({ body: await capturePayment(deps, request, meta.correlationId) }),
    'terminal.check': async ({ merchant_id }) => ({ body: { status: await checkTerminal(deps, merchant_id) } }),
    'terminal.set': async (command) => ({ body: await setTerminal(deps, command) }),
    'fees.set': async (command) => ({ body: await setFees(deps, command) }),
    'fees.get': async (command) => ({ body: await getFees(deps, command) }),
    'terminal.get': async (command) => ({ body: await getTerminal(deps, command) }),
    'terminal.probe': async (command) => ({ body: await probeTerminal(deps, command) }),
    'acquirer.secrets.rewrap': async () => ({ body: await secrets.rewrap() }),
    'wallet.settings.get': async (command) => ({ body: await getWalletSettings(deps, command) }),
    'wallet.settings.set': async (command, meta) => ({ body: await setWalletSettings(deps, command, meta.correlationId) }),
  };
}
