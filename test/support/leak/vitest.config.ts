// Two files in one worker, one after the other, as the suite runs them (isolate: false): each
// checks that the other's secret is not registered. LEAK_SETUP=off leaves the suite's setup out,
// to show that the check fails without it.
import { defineConfig } from 'vitest/config';
import suite from '../../../vitest.config.ts';

export default defineConfig({
  test: {
    ...suite.test,
    include: ['test/support/leak/*.leak.ts'],
    setupFiles: process.env.LEAK_SETUP === 'off' ? [] : suite.test?.setupFiles,
    maxWorkers: 1,
    fileParallelism: false,
  },
});
