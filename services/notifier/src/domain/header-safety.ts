/**
 * What may reach a mail header. A buyer's name, a merchant's name and an
 * address come from other people; a carriage return or a line feed in one
 * would start a header of its own (a Bcc, say). nodemailer encodes what it
 * writes, and this is the rule before it: text loses every control
 * character, an address with any is refused.
 */

/** C0 and C1 controls, DEL, and the Unicode line and paragraph separators. */
const CONTROLS = /[\p{Cc}\u2028\u2029]+/gu;
const HAS_CONTROL = /[\p{Cc}\u2028\u2029]/u;

/** Header text: control characters become a space, runs of space one, no more than `max` characters. */
export function headerText(value: string, max = 200): string {
  return value.replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim().slice(0, max);
}

/** A plain address (local@domain): no controls, spaces, quotes, brackets, commas or semicolons, at most 254 characters. */
const ADDRESS = /^[^\s\p{Cc}<>()[\],;:"\\@]{1,64}@[^\s\p{Cc}<>()[\],;:"\\@]{1,189}\.[^\s\p{Cc}<>()[\],;:"\\@.]{1,63}$/u;

/** `value` when it is a plain address safe to put in a header as it is, else undefined. */
export function checkAddress(value: string): string | undefined {
  return value.length <= 254 && ADDRESS.test(value) ? value : undefined;
}

/** A mailbox: `address` or `Name <address>` (MAIL_FROM), its parts checked as above; undefined when it is neither. */
export function checkMailbox(value: string): { name: string; address: string } | undefined {
  if (HAS_CONTROL.test(value)) return undefined;
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(value.trim());
  const address = checkAddress(named ? (named[2] ?? '') : value.trim());
  if (address === undefined) return undefined;
  return { name: named ? headerText(named[1] ?? '').replace(/^"(.*)"$/, '$1') : '', address };
}

/** Digits that could be a card number (13 or more, spaces or dashes between): a receipt never shows one, whoever typed it. */
export function withoutCardNumbers(value: string): string {
  return value.replace(/\d(?:[ -]?\d){12,}/g, '••••');
}

/** Someone else's text (a merchant's name, a buyer's) as a mail shows it: one line, no card number, at most `max` characters. */
export function shownText(value: string, max = 100): string {
  return withoutCardNumbers(headerText(value, max));
}
