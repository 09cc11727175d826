/**
 * The dashboard service's command queue: gateway-admin's `user create` and
 * `operator create` (the same use case as the Team page's invite), the
 * re-wrap of its secrets at rest, and, for the notifier (D20), whom a
 * merchant's notices are mailed to.
 */
import type { CommandHandlers, RpcClient } from '@gateway/messaging';
import type { SecretBox } from '@gateway/secrets';
import type { AccountsDeps } from '../domain/accounts.js';
import { createPerson } from '../domain/create-person.js';

/** The command table: each command type and the use case that answers it. */
export function dashboardCommands(deps: { accounts: AccountsDeps; secrets: SecretBox; rpc: RpcClient }): CommandHandlers {
  const { accounts, secrets, rpc } = deps;
  return {
    'user.create': async (command, meta) => {
      // The merchant must exist: the api-gateway keeps merchants. Asked for the operator who ran the command: the dashboard's key signs only for someone.
      const operator = meta.operator?.actor ?? { type: 'operator' as const, id: meta.operator?.id ?? '', email: '', address: '' };
      await rpc.call('merchant.get', { merchant_id: command.merchant_id }, { actor: operator });
      const { id, setupUrl } = await createPerson(accounts, { door: 'dashboard', merchantId: command.merchant_id, role: command.role, email: command.email, password: command.password });
      return { body: { user_id: id, ...(setupUrl !== undefined && { setup_url: setupUrl }) } };
    },
    'dashboard.secrets.rewrap': async () => ({ body: await secrets.rewrap() }),
    // D20: whom the notifier mails a merchant's notices.
    'team.owners': async (command) => ({
      body: { data: (await accounts.people.owners(command.merchant_id)).map((p) => ({ person_id: p.id, email: p.email, ...(p.language !== null && { language: p.language }) })) },
    }),
    'operator.create': async (command) => {
      const { id, setupUrl } = await createPerson(accounts, { door: 'ops', email: command.email, password: command.password });
      return { body: { operator_id: id, ...(setupUrl !== undefined && { setup_url: setupUrl }) } };
    },
  };
}
