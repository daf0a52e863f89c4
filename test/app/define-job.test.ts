// defineJob is typed over `needs` as defineCommand is: `run` gets the needed services present.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineJob, type JobContext } from '../../src/schedule/job.ts';
import type { AnalyticsClient } from '../../src/services/analytics/client.ts';
import type { EmailClient } from '../../src/services/email/client.ts';

describe('defineJob', () => {
  it('types the needed services as present and the others as maybe absent', async () => {
    const seen: unknown[] = [];
    const job = defineJob({
      name: 'typed-job',
      description: 'Checks its types',
      needs: ['analytics', 'webhook'],
      run(ctx) {
        expectTypeOf(ctx.services.analytics).toEqualTypeOf<AnalyticsClient>();
        expectTypeOf(ctx.services.email).toEqualTypeOf<EmailClient | undefined>();
        seen.push(ctx.services.analytics);
        return Promise.resolve();
      },
    });
    expect(job.needs).toEqual(['analytics', 'webhook']);
    expect(Object.isFrozen(job.needs)).toBe(true);
    const analytics = {} as AnalyticsClient;
    await job.run({ services: { analytics } } as unknown as JobContext);
    expect(seen).toEqual([analytics]);
  });

  it('refuses a name that is not kebab-case', () => {
    expect(() =>
      defineJob({ name: 'Bad_Name', description: 'x', needs: [], run: () => Promise.resolve() }),
    ).toThrow(/kebab-case/);
  });
});
