// The watchable commands' real handlers over answers given in the test: each call runs the command
// as the dispatcher would after reading its input, with a fake service that answers `data`.
import type { Command } from '../../src/core/command.ts';
import type { Reply } from '../../src/core/reply.ts';
import type { Services } from '../../src/core/services.ts';
import type { EmailRecord } from '../../src/services/email/client.ts';
import type { HostRecord } from '../../src/services/hostscan/client.ts';
import type { JobListing } from '../../src/services/job-search/client.ts';
import type { Forecast } from '../../src/services/weather/client.ts';
import { createEmailStatusCommand } from '../../commands/email-status.ts';
import { forecast } from '../../commands/forecast.ts';
import { createHostCommand } from '../../commands/host.ts';
import { createJobsCommand } from '../../commands/jobs.ts';
import { createContext } from '../commands/context.ts';

export type Run<T> = (data: T) => Promise<Reply>;

function runner<T>(
  command: Command,
  input: Record<string, unknown>,
  services: (data: T) => Partial<Services>,
) {
  return (data: T) => command.handler(input, createContext({ services: services(data) }));
}

/** /jobs what:"rust developer" where:Berlin, as a watch reads it (the provider's largest page). */
export function jobsFor(): Run<JobListing[]> {
  const command = createJobsCommand({ defaultCountry: 'de' }) as unknown as Command;
  const input = { what: 'rust developer', where: 'Berlin', page: 1, size: 50 };
  return runner(command, input, (results: JobListing[]) => ({
    jobSearch: {
      search: () => Promise.resolve({ count: results.length, results, meanSalary: 70_000 }),
    } as unknown as Services['jobSearch'],
  }));
}

/** /host 8.8.8.8; undefined: the scanner knows nothing of it. */
export function hostFor(): Run<HostRecord | undefined> {
  const command = createHostCommand({ users: [], roles: [] }) as unknown as Command;
  return runner(command, { ip: '8.8.8.8' }, (host: HostRecord | undefined) => ({
    hostscan: { host: () => Promise.resolve(host) } as unknown as Services['hostscan'],
  }));
}

/** /forecast Zocca: five days from 23 Nov 2026 (UTC), eight 3-hour steps each, with each day's condition. */
export function forecastFor(opts: { lows?: readonly number[] } = {}): Run<readonly string[]> {
  const command = forecast as unknown as Command;
  return runner(command, { city: 'Zocca', units: 'metric' }, (conditions: readonly string[]) => {
    const start = Date.parse('2026-11-23T00:00:00Z');
    const steps = Array.from({ length: 40 }, (_, i) => {
      const day = Math.floor(i / 8);
      const low = opts.lows?.[day] ?? 4;
      return {
        at: new Date(start + i * 3 * 3_600_000),
        temp: i % 8 === 0 ? low : low + 6.25,
        conditions: [{ main: conditions[day]!, description: conditions[day]!.toLowerCase() }],
      };
    });
    const answer: Forecast = { city: 'Zocca', country: 'IT', units: 'metric', timezoneOffsetS: 0, steps };
    return {
      weather: { forecast: () => Promise.resolve(answer) } as unknown as Services['weather'],
    };
  });
}

/** /email status of one sent email whose last event is `event`. */
export function emailStatusCommandFor(): Run<string> {
  const command = createEmailStatusCommand({ users: [], roles: [] }) as unknown as Command;
  const id = '49a3999c-0ce1-4ea6-ab68-afcd6dc2e794';
  return runner(command, { id }, (event: string) => {
    const record: EmailRecord = {
      id,
      from: 'herald@example.com',
      to: ['team@example.com'],
      subject: 'Weekly analytics',
      createdAt: new Date('2026-11-21T08:00:00Z'),
      lastEvent: event,
    };
    return { email: { get: () => Promise.resolve(record) } as unknown as Services['email'] };
  });
}
