import { describe, expect, it } from 'vitest';
import { DeadlineError, ServiceError, UserError, userMessageFor } from '../src/errors.ts';
import { SERVICE_ERROR_CODES } from './support/service-errors.ts';

describe('userMessageFor', () => {
  it('passes a user error through as one printable line', () => {
    expect(
      userMessageFor(new UserError({ code: 'invalid_input', message: 'No city “a\u001b[31mb\nc”.' })),
    ).toBe('No city “a [31mb c”.');
  });

  it('turns every service error code into one sentence naming the service, with no detail', () => {
    const codes = SERVICE_ERROR_CODES;
    for (const code of codes) {
      const text = userMessageFor(
        new ServiceError({
          service: 'hostscan',
          operation: 'host',
          code,
          status: 500,
          providerMessage: 'secret body https://x/?key=abc',
        }),
      );
      expect(text).toMatch(/^The host intelligence service .+\.$/);
      expect(text).not.toMatch(/https?:|secret|key=/);
    }
  });

  it('says how long to wait when the upstream said so', () => {
    const e = new ServiceError({
      service: 'weather',
      operation: 'current',
      code: 'rate_limited',
      retryAfterMs: 1_500,
    });
    expect(userMessageFor(e)).toBe('The weather service is rate limiting herald; try again in 2 seconds.');
  });

  it('hides anything unexpected behind a generic sentence', () => {
    expect(userMessageFor(new Error('TypeError at /srv/app.ts:12'))).toBe(
      'Something went wrong while running that command; it has been logged.',
    );
    expect(userMessageFor(new DeadlineError({ ms: 100 }))).toBe(
      'That took too long to answer; try again in a moment.',
    );
  });
});
