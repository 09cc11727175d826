export { findTestCard, luhnValid, TEST_CARDS, type TestCardBehaviour } from './test-cards.js';
