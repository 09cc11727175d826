export { findTestCard, luhnValid, TEST_CARDS, type TestCard, type TestCardBehaviour } from './test-cards.js';
