export * from './environment.js';
export * from './database.js';
export * from './broker.js';
export * from './system.js';
export * from './http.js';
export * from './checkout.js';
export * from './webhook-receiver.js';
export * from './otlp-receiver.js';
