export * from './api.js';
export * from './messages/index.js';
export * from './validation.js';
export * from './ids.js';
export * from './openapi.js';
export * from './webhook-event.js';
export * from './webhook-endpoints.js';
export * from './tunis-days.js';
