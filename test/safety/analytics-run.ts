// Runs the real analytics-summary job once, with a fake GA4 whose top pages are titled with a
// payload, and returns what it hands to the outbox: the webhook message and the email.
import { expect } from 'vitest';
import { createAnalyticsSummaryJob } from '../../jobs/analytics-summary.ts';
import type { Delivery } from '../../src/schedule/job.ts';
import type { AnalyticsClient, Report } from '../../src/services/analytics/client.ts';
import type { SendEmailInput } from '../../src/services/email/client.ts';
import type { WebhookClient, WebhookMessage } from '../../src/services/webhook/client.ts';
import { createMemoryStore } from '../../src/store/index.ts';
import { METRICS, domainReport, fakeAnalytics } from '../jobs/fixtures.ts';

const SLOT_AT = new Date('2025-11-22T08:00:00Z');
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** GA4 rows of the pageTitle dimension: the payload is the most viewed page. */
function topPages(payload: string): Report {
  return domainReport(
    ['pageTitle'],
    [
      { dims: [payload], values: [640, 512, 160, 7100, 21] },
      { dims: ['Pricing | herald'], values: [300, 250, 80, 4000, 10] },
      { dims: ['(not set)'], values: [4, 4, 1, 40, 0] },
    ],
  );
}

export async function runAnalyticsSummary(
  payload: string,
): Promise<{ webhook: WebhookMessage; email: SendEmailInput }> {
  const ga4 = fakeAnalytics();
  const analytics: AnalyticsClient = {
    runReport: (input) =>
      input.dimensions[0] === 'pageTitle' ? Promise.resolve(topPages(payload)) : ga4.runReport(input),
    close: () => Promise.resolve(),
  };
  const unused = () => Promise.reject(new Error('jobs hand posts to the outbox; they never post'));
  const webhook: WebhookClient = { post: unused, close: () => Promise.resolve() };
  const job = createAnalyticsSummaryJob({
    range: 'yesterday',
    metrics: METRICS,
    dimension: 'pageTitle',
    timezone: 'UTC',
    emailTo: ['team@example.com'],
    username: 'herald reports',
  });
  const deliveries: Delivery[] = [];
  await job.run({
    services: {
      analytics,
      webhook,
      email: { send: unused, get: unused, close: () => Promise.resolve() },
    },
    store: createMemoryStore(),
    log: quiet,
    now: () => new Date('2025-11-22T08:00:02Z'),
    signal: new AbortController().signal,
    slot: { id: SLOT_AT.toISOString(), scheduledAt: SLOT_AT, reason: 'scheduled' },
    deliver: (delivery) => deliveries.push(delivery),
  });
  const post = deliveries.find((d) => d.kind === 'webhook');
  const mail = deliveries.find((d) => d.kind === 'email');
  expect(post).toBeDefined();
  expect(mail).toBeDefined();
  return {
    webhook: (post as Extract<Delivery, { kind: 'webhook' }>).message,
    email: (mail as Extract<Delivery, { kind: 'email' }>).email,
  };
}
