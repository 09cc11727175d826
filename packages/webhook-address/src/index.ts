export {
  forbiddenLiteral,
  isForbiddenAddress,
  isIpLiteral,
  privateAddressProblem,
  unbracket,
  webhookUrlError,
} from './webhook-address.js';
