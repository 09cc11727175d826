export { HttpClient, type HeaderValues, type HttpClientOptions, type OutgoingRequest, type ReadAnswer, type StreamedAnswer } from './http-client.js';
export { HttpClientError, type HttpClientErrorKind, type PartialAnswer } from './http-client-error.js';
export { ADDRESS_NOT_ALLOWED, AddressNotAllowed, type HostResolver } from './address-guard.js';
