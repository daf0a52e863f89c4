import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Forgets the secrets a file registered when it ends (isolate: false, below).
    setupFiles: ['test/support/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // One worker process runs many files in turn: the heavy imports (discord.js, Bolt, msw, zod,
    // undici) are loaded once per worker, not once per file: a third to a half less CPU for the
    // suite (measured on this 2-core machine: 58 s to 29 s, and 87 s to 54 s as the suite grew). So a test file leaves the process as it
    // found it: real timers back on, its servers closed, no environment or global left changed.
    isolate: false,
    // Two workers even on two cores (vitest's default is one fewer than the cores: one, here): much
    // of the suite waits on children it spawned, loopback sockets and timeouts rather than
    // computing, and the second worker fills that time (wall time 233 s to 148 s, same load).
    maxWorkers: 2,
  },
});
