/**
 * A buyer on a payment link's page (D19): the page shows what the link
 * sells; its form (name, email, phone when asked, the amount of an open
 * link) makes a session through the session service's own create command
 * (merchant_reference `<link id>-<n>`, the link's description, items,
 * metadata, return_url and locale) and sends the buyer to its checkout page.
 * A closed link is gone; a link whose every payment left is under way for
 * other buyers is not available now (payment-link-slots); a flood of requests from
 * one address, or on one link from every address, is refused: the page's own
 * budget (D29), never the merchant's API Create budget; a suspended
 * merchant's page makes no session (the session service refuses it). The page speaks the link's locale
 * unless `auto`, then the buyer's Accept-Language, then French (D18).
 */
import { CreateSessionRequest, fieldErrorsOf, validatorOf, type CommandRequest, type SessionDetail } from '@gateway/contracts';
import { chooseLanguage, negotiateLanguage, type Language } from '@gateway/i18n';
import { accountCurrency, checkAmount, compareTnd } from '@gateway/money';
import { AppError } from '@gateway/problem';
import { Type } from '@sinclair/typebox';
import type { PaymentLinkRow } from '../db/payment-link.repository.js';
import type { PaymentLinkSlots } from './payment-link-slots.js';
import { closedReason, linkContext, priceText, type PaymentLinkDeps } from './payment-links.js';

export interface PayByPaymentLinkDeps extends PaymentLinkDeps {
  /** session.create, as the session service runs it for the API. */
  createSession: (request: CommandRequest<'session.create'>, correlationId: string) => Promise<SessionDetail>;
  /** Sessions one buyer address may ask for on one link in a minute. */
  buyerLimitPerMinute: number;
  /** Sessions one link may make in a minute, whatever the addresses (D29). */
  linkLimitPerMinute: number;
  /** The slots of payment links that may be paid only so many times. */
  slots: PaymentLinkSlots;
}

/** What the buyer typed. */
export type BuyerField = 'first_name' | 'last_name' | 'email' | 'phone' | 'amount';
type BuyerForm = Partial<Record<BuyerField, string>>;
/** Why a field was refused: the page words each in its language. */
export type BuyerFieldProblem = 'required' | 'invalid' | 'too_small' | 'too_large';

/** The payment link as its page shows it. */
export interface PaymentLinkPageView {
  /** Whose link it is: the page shows the merchant's branding (D20). */
  merchantId?: string;
  merchantName: string;
  description: string;
  /** The fixed price and its currency; absent for an open amount. */
  price?: { amount: string; currency: string };
  /** An open amount's bounds, TND. */
  bounds?: { min?: string; max?: string };
  items: PaymentLinkRow['items'];
  collectPhone: boolean;
  livemode: boolean;
  actionUrl: string;
  values: BuyerForm;
  fieldErrors: Partial<Record<BuyerField, BuyerFieldProblem>>;
}

/** What the buyer is shown next, in the page's language: a page, or the way to the checkout page. */
export type PaymentLinkAnswer =
  | ({ language: Language } & (
      | { page: 'link'; status: 200 | 422; view: PaymentLinkPageView }
      | { page: 'closed'; status: 410 }
      | { page: 'not-found'; status: 404 }
      | { page: 'limited'; status: 429; retryAfterSeconds: number }
      | { page: 'unavailable'; status: 403 | 422 }
      /** Each payment the link has left is under way for another buyer: maybe later. */
      | { page: 'busy'; status: 409 }
    ))
  | { redirect: string };

/** The buyer fields session.create checks, by its own contract: the page refuses what the API would. */
const BuyerFields = Type.Pick(CreateSessionRequest, ['first_name', 'last_name', 'email', 'phone']);
const BUYER_FIELDS: readonly BuyerField[] = ['first_name', 'last_name', 'email', 'phone', 'amount'];

/** GET /pay/<code>: the link's page, or why it takes no payment. */
export async function showPaymentLinkPage(deps: PayByPaymentLinkDeps, code: string, acceptLanguage: string | undefined): Promise<PaymentLinkAnswer> {
  const link = await deps.paymentLinks.findByCode(code);
  if (!link) return { page: 'not-found', status: 404, language: negotiateLanguage(acceptLanguage, 'fr') };
  const language = chooseLanguage(link.locale, acceptLanguage, 'fr');
  if (closedReason(link, deps.clock())) return { page: 'closed', status: 410, language };
  const availability = await deps.slots.availability(link);
  if (availability !== 'open') return availability === 'paid' ? { page: 'closed', status: 410, language } : { page: 'busy', status: 409, language };
  return { page: 'link', status: 200, language, view: viewOf(link, {}, {}) };
}

/** POST /pay/<code>: a session for the buyer, and the way to its checkout page; the form again with what is wrong. */
export async function payByPaymentLink(
  deps: PayByPaymentLinkDeps,
  code: string,
  form: Record<string, unknown>,
  buyer: { address: string; acceptLanguage: string | undefined; requestId: string },
): Promise<PaymentLinkAnswer> {
  const link = await deps.paymentLinks.findByCode(code);
  if (!link) return { page: 'not-found', status: 404, language: negotiateLanguage(buyer.acceptLanguage, 'fr') };
  const language = chooseLanguage(link.locale, buyer.acceptLanguage, 'fr');
  const now = deps.clock();
  if (closedReason(link, now)) return { page: 'closed', status: 410, language };

  const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const counted = await deps.paymentLinks.countRequest(link.id, buyer.address, minute, deps.buyerLimitPerMinute);
  if (counted.address > deps.buyerLimitPerMinute || counted.link > deps.linkLimitPerMinute) {
    return { page: 'limited', status: 429, language, retryAfterSeconds: Math.max(1, Math.ceil((minute.getTime() + 60_000 - now.getTime()) / 1000)) };
  }

  const values = buyerFormOf(form, link.collect_phone, link.open_amount);
  const errors = checkBuyerForm(values, link);
  if (Object.keys(errors).length > 0) return { page: 'link', status: 422, language, view: viewOf(link, values, errors) };
  const availability = await deps.slots.availability(link);
  if (availability !== 'open') return availability === 'paid' ? { page: 'closed', status: 410, language } : { page: 'busy', status: 409, language };

  try {
    const session = await createLinkSession(deps, link, values, buyer.requestId);
    if (session.checkout_url === undefined) return { page: 'unavailable', status: 422, language };
    await deps.slots.recordSession(session.id, link);
    return { redirect: session.checkout_url };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    // A suspended merchant takes no payment, by whichever door.
    if (err.code === 'forbidden') return { page: 'unavailable', status: 403, language };
    // The session service's own checks of what the buyer typed: shown beside the field.
    const buyerErrors: PaymentLinkPageView['fieldErrors'] = {};
    for (const error of err.errors) {
      const field = BUYER_FIELDS.find((name) => name === error.field);
      if (field) buyerErrors[field] = 'invalid';
    }
    if (Object.keys(buyerErrors).length > 0 && buyerErrors.amount === undefined) return { page: 'link', status: 422, language, view: viewOf(link, values, buyerErrors) };
    return { page: 'unavailable', status: 422, language };
  }
}

/** A reference held by a session the link did not make is passed over, a few times at most. */
const REFERENCE_TRIES = 3;

/**
 * The buyer's session, under the link's next merchant_reference. A session
 * of the merchant's own under that reference (made before such references
 * were kept for links) is a conflict, never the buyer's: the next number is
 * taken.
 */
async function createLinkSession(deps: PayByPaymentLinkDeps, link: PaymentLinkRow, values: BuyerForm, requestId: string): Promise<SessionDetail> {
  for (let attempt = 1; ; attempt += 1) {
    const n = await deps.paymentLinks.nextReferenceNumber(link.id);
    try {
      return await deps.createSession({ context: linkContext(link, requestId), body: sessionBody(link, values, n), payment_link: link.id }, requestId);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'conflict' || attempt >= REFERENCE_TRIES) throw err;
    }
  }
}

/** The form's fields the link asks for, as typed (trimmed); anything else is ignored. */
function buyerFormOf(form: Record<string, unknown>, collectPhone: boolean, openAmount: boolean): BuyerForm {
  const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string).trim() : '');
  const values: BuyerForm = { first_name: text('first_name'), last_name: text('last_name'), email: text('email') };
  if (collectPhone) values.phone = text('phone');
  if (openAmount) values.amount = text('amount');
  return values;
}

/** What is wrong with the buyer's form: session.create's rules for the buyer, the link's bounds for an open amount. */
function checkBuyerForm(values: BuyerForm, link: PaymentLinkRow): Partial<Record<BuyerField, BuyerFieldProblem>> {
  const errors: Partial<Record<BuyerField, BuyerFieldProblem>> = {};
  const buyer = Object.fromEntries(Object.entries({ first_name: values.first_name, last_name: values.last_name, email: values.email, phone: values.phone }).filter(([, value]) => value !== undefined && value !== ''));
  const validate = validatorOf(BuyerFields);
  if (!validate(buyer)) {
    for (const error of fieldErrorsOf(validate.errors)) {
      const field = BUYER_FIELDS.find((name) => name === error.field);
      if (field) errors[field] = error.code === 'required' ? 'required' : 'invalid';
    }
  }
  if (link.collect_phone && values.phone === '') errors.phone = 'required';
  if (link.open_amount) {
    const amount = values.amount ?? '';
    const check = checkAmount(amount === '' ? undefined : amount, accountCurrency);
    if (!check.ok) errors.amount = check.code === 'required' ? 'required' : 'invalid';
    else if (link.amount_min !== null && compareTnd(check.text, link.amount_min) < 0) errors.amount = 'too_small';
    else if (link.amount_max !== null && compareTnd(check.text, link.amount_max) > 0) errors.amount = 'too_large';
  }
  return errors;
}

/** The session's create body: the link's order, the buyer's name and address. */
function sessionBody(link: PaymentLinkRow, values: BuyerForm, n: number): Record<string, unknown> {
  const body: Record<string, unknown> = {
    amount: link.open_amount ? values.amount : priceText(link.amount ?? '0', link.currency),
    currency: link.open_amount ? 'TND' : link.currency,
    merchant_reference: `${link.id}-${n}`,
    description: link.description,
    first_name: values.first_name,
    last_name: values.last_name,
    email: values.email,
    locale: link.locale,
  };
  if (values.phone) body['phone'] = values.phone;
  if (link.items.length > 0) body['items'] = link.items;
  if (Object.keys(link.metadata).length > 0) body['metadata'] = link.metadata;
  if (link.return_url !== '') body['return_url'] = link.return_url;
  return body;
}

function viewOf(link: PaymentLinkRow, values: BuyerForm, fieldErrors: PaymentLinkPageView['fieldErrors']): PaymentLinkPageView {
  const view: PaymentLinkPageView = {
    merchantId: link.merchant_id,
    merchantName: link.merchant_name,
    description: link.description,
    items: link.items,
    collectPhone: link.collect_phone,
    livemode: link.livemode,
    actionUrl: `/pay/${link.code}`,
    values,
    fieldErrors,
  };
  if (link.open_amount) {
    view.bounds = {};
    if (link.amount_min !== null) view.bounds.min = link.amount_min;
    if (link.amount_max !== null) view.bounds.max = link.amount_max;
  } else if (link.amount !== null) {
    view.price = { amount: priceText(link.amount, link.currency), currency: link.currency };
  }
  return view;
}
