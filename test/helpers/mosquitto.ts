export * from '../../src/harness/mosquitto.js';
