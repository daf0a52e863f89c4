import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelayMs, type RetryInput } from '../../src/http/policy.ts';

const base: RetryInput = {
  attempt: 1,
  maxRetries: 2,
  status: 503,
  isNetworkError: false,
  isRetryableMethod: true,
  baseMs: 200,
  maxRetryAfterMs: 10_000,
  random: () => 0.5,
};

describe('retry policy', () => {
  it('backs off exponentially with jitter for retryable statuses', () => {
    expect(retryDelayMs(base)).toBe(100);
    expect(retryDelayMs({ ...base, attempt: 2 })).toBe(200);
    expect(retryDelayMs({ ...base, random: () => 0 })).toBe(1);
  });

  it('stops after maxRetries, for non-retryable statuses and for non-idempotent requests', () => {
    expect(retryDelayMs({ ...base, attempt: 3 })).toBeUndefined();
    expect(retryDelayMs({ ...base, status: 400 })).toBeUndefined();
    expect(retryDelayMs({ ...base, status: 404 })).toBeUndefined();
    expect(retryDelayMs({ ...base, isRetryableMethod: false })).toBeUndefined();
  });

  it('retries network errors that carry no status', () => {
    expect(retryDelayMs({ ...base, status: undefined, isNetworkError: true })).toBe(100);
  });

  it('waits for Retry-After, and gives up when it is longer than the cap', () => {
    expect(retryDelayMs({ ...base, status: 429, retryAfterMs: 2000 })).toBe(2050);
    expect(retryDelayMs({ ...base, status: 429, retryAfterMs: 60_000 })).toBeUndefined();
  });

  it('parses Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('3', 0)).toBe(3000);
    expect(parseRetryAfter('1.5', 0)).toBe(1500);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 4000)).toBe(6000);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
  });
});
