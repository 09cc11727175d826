export {
  forbiddenLiteral,
  isForbiddenAddress,
  isIpLiteral,
  privateAddressProblem,
  unbracket,
  webhookUrlError,
  webhookUrlProblem,
  type WebhookUrlOptions,
} from './webhook-address.js';
