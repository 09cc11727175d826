export { CardOpener, CardSealer, SealedCardError, type Card } from './sealed-card.js';
