export * from './api.js';
export * from './messages.js';
export * from './validation.js';
export * from './ids.js';
export * from './openapi.js';
export * from './test-cards.js';
export * from './card-envelope.js';
export * from './webhook-address.js';
