import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'clients/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Native bindings (serialport) and child processes are happiest in forked workers.
    pool: 'forks',
    // Integration tests pick their own ports and temp dirs, so files may run in parallel,
    // but the machines have 2 cores: keep it at 2 workers.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
