/** A merchant's account in one mode: what its endpoints and its delivery history are scoped to (D2). */
import type { ApiContext } from '@gateway/contracts';

export interface Account {
  merchantId: string;
  livemode: boolean;
}

/** The account a merchant's request is made on. */
export function accountOf(context: ApiContext): Account {
  return { merchantId: context.merchant_id, livemode: context.livemode };
}
