export * from '../../src/harness/temp-dir.js';
