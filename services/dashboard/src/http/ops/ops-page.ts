/**
 * What every page of the operations console shares (D15): it is for
 * operators; a page calls the owning services with the operator's commands,
 * checked against their contracts first, and renders in the console's frame.
 */
import { checkCommandRequest, ContractViolation, fieldErrorsOf, type CommandReply, type CommandRequest, type CommandType } from '@gateway/contracts';
import { validationError } from '@gateway/problem';
import type { PageView } from '../../views/layout.js';
import { opsLayout } from '../../views/ops/ops-frame.js';
import { Caller } from '../caller.js';
import type { DoorDeps, Outcome, Viewer } from '../door.js';

/** Every console page is for operators: the door's session already is an operator's (the ops cookie and its people are the console's own). */
export const operators = { allow: (viewer: Viewer) => (viewer.person.door === 'ops' ? undefined : viewer.t('console_for_operators')) };

/** One signed-in console page's means: the operator, the calls, and its frame. */
export interface OpsPage {
  viewer: Viewer;
  /** An operator command, signed for the operator, the same one gateway-admin sends (D15). */
  command<C extends CommandType>(type: C, data: CommandRequest<C>): Promise<CommandReply<C>>;
  render(section: string, page: PageView, status?: number): Outcome;
}

/** The means of a console page for the signed-in operator `viewer`. */
export function opsPage(deps: DoorDeps, viewer: Viewer): OpsPage {
  const call = new Caller(deps.rpc, viewer);
  return {
    viewer,
    async command(type, data) {
      // What the contract refuses is bad input from the form: a problem naming the fields, never a send.
      try {
        checkCommandRequest(type, data);
      } catch (err) {
        if (err instanceof ContractViolation) {
          throw validationError(fieldErrorsOf(err.errors, { whole: 'form' }));
        }
        throw err;
      }
      return call.command(type, data);
    },
    render: (section, page, status) => ({ page: opsLayout(viewer, viewer.person.email, section, page.title, page.body), ...(status !== undefined && { status }) }),
  };
}
