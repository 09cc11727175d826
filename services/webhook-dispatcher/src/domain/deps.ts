/** What the dispatcher's use cases work with. */
import type { ApiContext, CommandReply } from '@gateway/contracts';
import type { SecretBox } from '@gateway/secrets';
import type { DeliveryHistoryRepository } from '../db/delivery-history.repository.js';
import type { DeliveryJob } from '../db/delivery-jobs.js';
import type { DeliveryRepository } from '../db/delivery.repository.js';
import type { EndpointRepository } from '../db/endpoint.repository.js';

export interface EndpointDeps {
  endpoints: EndpointRepository;
  allowPrivate: boolean;
  secretGraceSeconds: number;
  /** Managed endpoints per merchant and mode. */
  maxEndpoints: number;
}

export interface ReplayDeps {
  endpoints: EndpointRepository;
  deliveries: DeliveryRepository;
  enqueue: (jobs: readonly DeliveryJob[]) => void;
  retentionDays: number;
  /** Events one call queues at most. */
  replayBatch: number;
}

export interface HistoryDeps {
  history: DeliveryHistoryRepository;
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
