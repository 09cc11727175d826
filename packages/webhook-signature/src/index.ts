/**
 * The gateway's webhook signature scheme, for the services that sign. The one
 * implementation lives in the published SDK (merchants verify with the same
 * code), so signing and verifying can never disagree.
 */
export * from '@gateway/sdk/signature';
