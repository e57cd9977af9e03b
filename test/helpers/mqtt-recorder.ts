export * from '../../src/harness/mqtt-recorder.js';
