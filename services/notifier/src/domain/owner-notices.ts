/**
 * The owners' notices (D20): when the webhook dispatcher disables a failing
 * endpoint (webhook_endpoint.disabled) and when an operator resolves one of
 * the merchant's pending refunds (refund.updated, resolved_by operator), each
 * owner of the merchant, as the dashboard names them (team.owners), gets one
 * mail in their language (French when none is known), keyed on the event and
 * the owner: a redelivered event writes nothing more, and one whose owners
 * could not be asked goes back to the queue and is tried again.
 */
import type { CommandReply, EventData } from '@gateway/contracts';
import type { Language } from '@gateway/i18n';
import type { Change, ChangeContext } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import type { MailQueueRepository, NewMail } from '../db/mail-queue.repository.js';
import { renderEndpointDisabled, renderRefundResolved } from '../views/owner-notice-mails.js';
import { checkAddress } from './header-safety.js';
import { peopleLanguage, type PeopleMailKind } from './people-mails.js';
import { queuedMail, type RenderedMail } from './queued-mail.js';
import { writeMail } from './write-mail.js';

type NoticeEvent = 'webhook_endpoint.disabled' | 'refund.updated';

export type Owners = CommandReply<'team.owners'>['data'];

/** A webhook endpoint the dispatcher disabled, as its notice tells it. */
export interface EndpointDisabled {
  language: Language;
  merchantId: string;
  livemode: boolean;
  endpointId: string;
  url: string;
  disabledAt: Date;
}

/** A pending refund an operator resolved, as its notice tells it. */
export interface RefundResolved {
  language: Language;
  merchantId: string;
  livemode: boolean;
  refundId: string;
  orderNumber: string;
  /** TND, a decimal string. */
  amount: string;
  outcome: 'succeeded' | 'failed';
  at: Date;
}

/** A notice an event asks for: whose owners, and the mail in any language. */
export interface Notice {
  kind: PeopleMailKind;
  /** The event it comes from: with each owner, the mail's source. */
  eventId: string;
  merchantId: string;
  livemode: boolean;
  render: (language: Language) => RenderedMail;
}

/** The notice `type` with `data` asks for, or undefined when it asks for none. */
export function noticeOf(type: string | undefined, eventId: string, data: EventData<NoticeEvent>, at: Date): Notice | undefined {
  if (type === 'webhook_endpoint.disabled') {
    const disabled = data as EventData<'webhook_endpoint.disabled'>;
    return {
      kind: 'endpoint_disabled_notice',
      eventId,
      merchantId: disabled.merchant_id,
      livemode: disabled.livemode,
      render: (language) =>
        renderEndpointDisabled({ language, merchantId: disabled.merchant_id, livemode: disabled.livemode, endpointId: disabled.endpoint_id, url: disabled.url, disabledAt: new Date(disabled.disabled_at) }),
    };
  }
  if (type === 'refund.updated') {
    const updated = data as EventData<'refund.updated'>;
    const refund = updated.session.refund;
    if (updated.resolved_by !== 'operator' || !refund || (refund.status !== 'succeeded' && refund.status !== 'failed')) return undefined;
    const outcome = refund.status;
    return {
      kind: 'refund_resolved_notice',
      eventId,
      merchantId: updated.merchant_id,
      livemode: updated.session.livemode,
      render: (language) =>
        renderRefundResolved({ language, merchantId: updated.merchant_id, livemode: updated.session.livemode, refundId: refund.refund_id, orderNumber: updated.session.order_number, amount: refund.amount, outcome, at }),
    };
  }
  return undefined;
}

/** The mails of `notice`, one per owner whose address may go in a header. */
export function noticeMails(notice: Notice, owners: Owners, log: Logger): NewMail[] {
  const mails: NewMail[] = [];
  for (const owner of owners) {
    const recipient = checkAddress(owner.email);
    if (recipient === undefined) {
      log.warn({ personId: owner.person_id, kind: notice.kind }, 'notice not written: the owner address is not one a header may carry');
      continue;
    }
    const language = peopleLanguage(owner.language);
    const about = { kind: notice.kind, source: `${notice.eventId}:${owner.person_id}`, merchantId: notice.merchantId, livemode: notice.livemode, language, recipient };
    mails.push(queuedMail(about, notice.render(language)));
  }
  return mails;
}

/** The change; it answers how many mails it wrote (undefined when none: all there already, or no owner). */
export function ownerNotices(mails: MailQueueRepository, ownersOf: (merchantId: string) => Promise<Owners>, log: Logger): Change<NoticeEvent, Notice, number> {
  return {
    name: 'owner-notices',
    events: ['webhook_endpoint.disabled', 'refund.updated'],
    fromEvent: (data: EventData<NoticeEvent>, context: ChangeContext) => noticeOf(context.event?.type, context.event?.id ?? '', data, context.at),
    apply: async (notice) => {
      const owners = await ownersOf(notice.merchantId);
      let written = 0;
      for (const mail of noticeMails(notice, owners, log)) if ((await writeMail(mails, log, mail)) !== undefined) written += 1;
      return written > 0 ? written : undefined;
    },
  };
}
