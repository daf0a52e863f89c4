// The built-in simulator of S1 to S8: every service's msw handlers in one list, served by
// server.ts on loopback. The same handlers are the test fakes (test/support/sandbox-server.ts).
import type { RequestHandler } from 'msw';
import { analyticsHandlers } from './analytics.ts';
import { emailHandlers } from './email.ts';
import { geocodingHandlers } from './geocoding.ts';
import { hostscanHandlers } from './hostscan.ts';
import { jobSearchHandlers } from './job-search.ts';
import type { HandlerOptions } from './layout.ts';
import { speechHandlers } from './speech.ts';
import { weatherHandlers } from './weather.ts';
import { webhookHandlers } from './webhook.ts';

export interface SandboxOptions extends HandlerOptions {
  /** Clock for timestamps and progressions such as an email's delivery (tests fix it). */
  now?: () => number;
}

export function sandboxHandlers(opts: SandboxOptions = {}): RequestHandler[] {
  return [
    ...emailHandlers(opts),
    ...analyticsHandlers(opts),
    ...weatherHandlers(opts),
    ...geocodingHandlers(opts),
    ...speechHandlers(opts),
    ...hostscanHandlers(opts),
    ...webhookHandlers(opts),
    ...jobSearchHandlers(opts),
  ];
}
