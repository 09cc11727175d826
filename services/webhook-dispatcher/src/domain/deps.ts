/** What the dispatcher's use cases work with. */
import type { ApiContext, CommandReply } from '@gateway/contracts';
import type { SecretBox } from '@gateway/secrets';
import type { DeliveryJob, DeliveryRepository } from '../db/delivery.repository.js';
import type { EndpointRepository } from '../db/endpoint.repository.js';

export interface EndpointDeps {
  endpoints: EndpointRepository;
  allowPrivate: boolean;
  secretGraceSeconds: number;
}

export interface HistoryDeps {
  deliveries: DeliveryRepository;
  /** The session as its owner sees it: throws not-found when it is not the caller's. */
  getSession: (context: ApiContext, sessionId: string) => Promise<CommandReply<'session.get'>>;
}

export interface ResendDeps {
  deliveries: DeliveryRepository;
  enqueue: (jobs: readonly DeliveryJob[]) => void;
}

export interface SecretsDeps {
  secrets: SecretBox;
}
