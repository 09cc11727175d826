/**
 * The notifier service's messages (D20): the commands that ask it to mail people,
 * and the merchant's settings of the mails it writes.
 */
import { type CommandContract } from './common.js';

/** The commands the notifier service runs. */
export const notifierCommands = {} as const satisfies Record<string, CommandContract>;
