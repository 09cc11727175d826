/**
 * The operations console's frame (D15): its sections, the operator in view,
 * the page shell, and how a page calls the owning services for the operator
 * and shows their answers.
 */
import type { Request } from 'express';
import { checkCommandRequest, ContractViolation, fieldErrorsOf, type CommandReply, type CommandRequest, type CommandType } from '@gateway/contracts';
import { validationError } from '@gateway/problem';
import type { HtmlValue } from '@gateway/runtime';
import { Caller, type DoorDeps, type Outcome, type Viewer } from '../door.js';
import { layout } from '../layout.js';

export const OPS = '/ops';

const SECTIONS = [
  { href: `${OPS}/merchants`, label: 'merchants_section' },
  { href: `${OPS}/manual-refunds`, label: 'manual_refunds_section' },
  { href: `${OPS}/audit-log`, label: 'audit_log_section' },
  { href: `${OPS}/security`, label: 'security_section' },
] as const;

/** Every console page is for operators: the door's session already is an operator's (the ops cookie and its people are the console's own). */
export const operators = { allow: (viewer: Viewer) => (viewer.person.door === 'ops' ? undefined : viewer.t('console_for_operators')) };

/** One signed-in console page's means: the operator, the calls, and its shell. */
export interface OpsPage {
  viewer: Viewer;
  /** An operator command, signed for the operator, the same one gateway-admin sends (D15). */
  command<C extends CommandType>(type: C, data: CommandRequest<C>): Promise<CommandReply<C>>;
  render(section: string, title: string, body: HtmlValue, status?: number): Outcome;
}

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
    render: (section, title, body, status) => ({
      page: layout(
        {
          language: viewer.language,
          t: viewer.t,
          base: OPS,
          title,
          frame: { brand: viewer.t('operations_console_name'), who: viewer.person.email, csrf: viewer.csrf, sections: SECTIONS, current: section },
        },
        body,
      ),
      ...(status !== undefined && { status }),
    }),
  };
}

/** One text field of a form or a query, trimmed; '' when absent. */
export function field(source: unknown, name: string): string {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.trim() : '';
}

export function queryField(req: Request, name: string): string {
  return field(req.query, name);
}
