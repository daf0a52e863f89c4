import { expect, it } from 'vitest';
import { REDACTED, redactText, registerSecret } from '../../../src/redact.ts';

it("starts without the other file's secret, then registers its own", () => {
  expect(redactText('leak-check-secret-a')).toBe('leak-check-secret-a');
  registerSecret('leak-check-secret-b');
  expect(redactText('leak-check-secret-b')).toBe(REDACTED);
});
