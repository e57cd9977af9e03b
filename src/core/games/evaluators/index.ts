export * from './poker.js';
export * from './three-pictures.js';
export * from './pok-deng.js';
export * from './blackjack-hand.js';
export * from './sic-bo.js';
export * from './keno.js';
export * from './holdem-bonus.js';
