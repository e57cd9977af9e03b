export * from '../../src/harness/pty-pair.js';
