export { HttpClient, type HttpClientOptions, type ReadAnswer } from './http-client.js';
export { HttpClientError } from './http-client-error.js';
export { type HostResolver } from './address-guard.js';
