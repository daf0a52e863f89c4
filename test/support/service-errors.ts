// Every code a service call can fail with (src/errors.ts ServiceErrorCode), listed once for the
// tests that go through them all.
import type { ServiceErrorCode } from '../../src/errors.ts';

export const SERVICE_ERROR_CODES: readonly ServiceErrorCode[] = [
  'unauthorized',
  'forbidden',
  'not_found',
  'invalid_request',
  'rate_limited',
  'upstream',
  'timeout',
  'network',
  'bad_response',
  'unavailable',
  'internal',
];
