/**
 * The card form as the buyer submits it, checked before anything leaves the
 * page's server: Luhn, an expiry not in the past, a 3- or 4-digit security
 * code and a name. Errors name the field with a message key of the page's
 * catalogue (the page words it in the buyer's language), never echo the card.
 */
import type { Card } from '@gateway/card-sealing';
import { luhnValid } from '@gateway/test-cards';

/** The card form's fields, by their names in the form. */
export type CardField = 'card_number' | 'expiry' | 'cvc' | 'cardholder_name';

/** Why a field is refused: the key of the page catalogue's message, which words it in the buyer's language. */
export type CardFieldError = 'error_card_number' | 'error_expiry_format' | 'error_expiry_past' | 'error_cvc' | 'error_cardholder_name';

/** What the buyer typed that may be shown again after a refusal: never the card number or security code. */
export interface CardFormValues {
  expiry?: string;
  cardholder_name?: string;
}

export type CardCheck = { ok: true; card: Card } | { ok: false; errors: Partial<Record<CardField, CardFieldError>>; values: CardFormValues };

function field(form: Record<string, unknown>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value.trim() : '';
}

export function checkCardForm(form: Record<string, unknown>, now: Date): CardCheck {
  const errors: Partial<Record<CardField, CardFieldError>> = {};
  const pan = field(form, 'card_number').replace(/[\s-]/g, '');
  if (!luhnValid(pan)) errors.card_number = 'error_card_number';

  const expiry = field(form, 'expiry');
  const match = /^(0[1-9]|1[0-2])\s*\/\s*([0-9]{2}|[0-9]{4})$/.exec(expiry);
  let expMonth = '';
  let expYear = '';
  if (!match) {
    errors.expiry = 'error_expiry_format';
  } else {
    expMonth = match[1] ?? '';
    const year = match[2] ?? '';
    expYear = year.length === 2 ? `20${year}` : year;
    const currentMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (Number(expYear) * 12 + Number(expMonth) - 1 < currentMonth) errors.expiry = 'error_expiry_past';
  }

  const cvc = field(form, 'cvc');
  if (!/^[0-9]{3,4}$/.test(cvc)) errors.cvc = 'error_cvc';

  const holder = field(form, 'cardholder_name');
  if (holder.length === 0 || holder.length > 100) errors.cardholder_name = 'error_cardholder_name';

  if (Object.keys(errors).length > 0) return { ok: false, errors, values: { expiry: expiry.slice(0, 7), cardholder_name: holder.slice(0, 100) } };
  return { ok: true, card: { pan, cvc, expMonth, expYear, holder } };
}
