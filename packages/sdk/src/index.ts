/** @gateway/sdk: the typed client of the hosted-checkout payment gateway. */
export { Gateway, type GatewayOptions, type RequestOptions } from './client.js';
export { Events } from './events.js';
export { Exports, type Download, type DownloadOptions, type ExportKind, type ExportQuery } from './exports.js';
export type { ServerSentEvent, StreamItem } from './server-sent-events.js';
export { PagedList, type Cursor, type Page } from './pagination.js';
export * from './errors.js';
export { Webhooks, type ConstructEventOptions } from './webhooks/construct-event.js';
export { computeSignature, signatureHeader, verifySignature, parseSignatureHeader, DEFAULT_TOLERANCE_SECONDS } from './webhooks/signature.js';
export type * from './generated/openapi.js';
export { operations, webhookEventTypes } from './generated/openapi.js';
