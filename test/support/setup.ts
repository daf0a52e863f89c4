// Runs before each test file. vitest runs many files in one process (isolate: false), so what a
// file registers in the process-wide secret registry is forgotten when the file ends.
import { afterAll } from 'vitest';
import { forgetSecrets } from '../../src/redact.ts';

afterAll(() => {
  forgetSecrets();
});
