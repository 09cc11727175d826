/**
 * The buyer fields of paymentorder.do (ACQUIRER.md "3-D Secure 2"): the
 * buyer's address, and an email or a phone, which Visa asks for with 3-D
 * Secure. Each is optional here; a malformed one is "5".
 */
import { isIP } from 'node:net';
import { invalid } from './epg-error.js';
import type { Payer } from './order.js';
import type { CallParams } from './sandbox.js';

/** The BPC limits: an IPv6 address is at most 39 characters. */
const MAX_IP = 39;
const MAX_EMAIL = 254;
const MAX_PHONE = 32;

/** The payer fields of a paymentorder.do, checked; undefined when none was given. */
export function readPayer(params: CallParams): Payer | undefined {
  const ip = params.get('ip');
  const email = params.get('email');
  const phone = params.get('phone');
  if (ip !== undefined && (ip.length > MAX_IP || isIP(ip) === 0)) throw invalid('ip');
  if (email !== undefined && (email.length > MAX_EMAIL || !/^[^\s@]+@[^\s@]+$/.test(email))) throw invalid('email');
  if (phone !== undefined && phone.length > MAX_PHONE) throw invalid('phone');
  if (ip === undefined && email === undefined && phone === undefined) return undefined;
  return { ...(ip !== undefined && { ip }), ...(email !== undefined && { email }), ...(phone !== undefined && { phone }) };
}
