export * from '../../src/harness/free-port.js';
