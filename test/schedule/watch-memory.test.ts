// The generic watch (src/schedule/watch.ts) over the real watchable commands' handlers: what it
// remembers (a SHA-256 digest per key, at most 1,000, the least recently seen forgotten first, a
// bounded number of bytes), memories of earlier versions (plain keys) converted once at start so
// that nothing is posted again, and what it thinks is new unaffected by a change to the command's
// text formatting.
import { describe, expect, it } from 'vitest';
import { emailStatusCommandFor, forecastFor, hostFor, jobsFor, type Run } from './watch-commands.ts';
import {
  applyWatch,
  convertOldWatchMemories,
  keyDigest,
  WATCH_MEMORY_MAX,
  watchMemoryKey,
  type WatchResult,
} from '../../src/schedule/watch.ts';
import { createMemoryStore } from '../../src/store/index.ts';
import { mapReplyText, type Reply } from '../../src/core/reply.ts';
import type { HostRecord, HostService } from '../../src/services/hostscan/client.ts';
import type { JobListing } from '../../src/services/job-search/client.ts';

const listing = (
  n: number,
  link = `https://www.adzuna.co.uk/jobs/land/ad/${n}?se=abc&v=4AC`,
): JobListing => ({
  id: String(n),
  title: `Rust Developer ${n}`,
  company: 'Acme GmbH',
  location: 'Berlin, Germany',
  salaryMin: 60_000,
  salaryMax: 80_000,
  salaryIsPredicted: false,
  created: new Date('2026-11-20T09:00:00Z'),
  url: link,
  contractTime: 'full_time',
  contractType: 'permanent',
});
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => listing(from + i));

/** Runs the /jobs watch over the answers in turn, as the runner does: memory kept after each post. */
async function watchRuns(jobs: Run<JobListing[]>, answers: JobListing[][], start?: string) {
  let memory = start;
  const posts: (Reply | undefined)[] = [];
  for (const answer of answers) {
    const result: WatchResult = applyWatch(await jobs(answer), memory);
    posts.push(result.reply);
    memory = result.memory;
  }
  return { posts, memory: memory! };
}

const titles = (reply: Reply | undefined) =>
  reply?.embeds?.[0]?.fields?.map((f) => f.name.replace(/^\d+\.\s*/, '')) ?? [];

describe('a watch remembers digests of keys', () => {
  it('keeps a fixed-size SHA-256 digest per key, however long the key (150 kB links)', async () => {
    const jobs = jobsFor();
    const huge = (n: number) =>
      listing(n, `https://jobs.example/${String(n).padStart(6, '0')}?${'x'.repeat(150_000)}`);
    const answers = [0, 1, 2].map((run) => Array.from({ length: 20 }, (_, i) => huge(run * 20 + i)));
    const { memory } = await watchRuns(jobs, answers);
    const seen = (JSON.parse(memory) as { seen: string[] }).seen;
    expect(seen).toHaveLength(60);
    expect(new Set(seen.map((d) => d.length))).toEqual(new Set([44]));
    expect(seen.at(-1)).toBe(keyDigest(huge(59).url!));
    // 60 listings of 150 kB each (9 MB), remembered in under 3 kB.
    expect(memory.length).toBeLessThan(60 * 50);
  });

  it('remembers at most 1,000 keys: the memory is bounded in bytes', async () => {
    const jobs = jobsFor();
    const answers = Array.from({ length: 25 }, (_, run) => range(run * 50, run * 50 + 49));
    const { memory } = await watchRuns(jobs, answers);
    expect((JSON.parse(memory) as { seen: string[] }).seen).toHaveLength(WATCH_MEMORY_MAX);
    expect(memory.length).toBeLessThan(WATCH_MEMORY_MAX * 48 + 100);
  });

  it('forgets the least recently seen: a listing in every answer is never posted again', async () => {
    const jobs = jobsFor();
    const always = listing(999_999);
    // 30 runs of 49 new listings each beside the one that stays: 1,470 others pass by.
    const answers = Array.from({ length: 30 }, (_, run) => [always, ...range(run * 49, run * 49 + 48)]);
    const { posts } = await watchRuns(jobs, answers);
    expect(titles(posts[0])).toContain(always.title);
    for (const post of posts.slice(1)) {
      expect(post?.embeds?.[0]?.title).toMatch(/^49 new: /);
      expect(titles(post)).not.toContain(always.title);
    }
  });

  it('names the items it does not show in the noun of the command, one or many', async () => {
    const { posts } = await watchRuns(jobsFor(), [range(1, 2), range(1, 13), range(1, 25)]);
    expect(posts[1]?.embeds?.[0]?.footer).toMatch(/ 1 more new listing is not shown\.$/);
    expect(posts[2]?.embeds?.[0]?.footer).toMatch(/ 2 more new listings are not shown\.$/);
  });

  it('forgets the least recently seen first: an old listing seen again stays, an unseen one goes', async () => {
    const jobs = jobsFor();
    // Run 1 shows 0..49; each later run shows listing 0 again with 49 new ones (a page holds 50).
    const answers = Array.from({ length: 21 }, (_, run) =>
      run === 0 ? range(0, 49) : [listing(0), ...range(run * 50, run * 50 + 48)],
    );
    let { posts, memory } = await watchRuns(jobs, answers);
    expect(posts.slice(1).every((p) => p?.embeds?.[0]?.title?.startsWith('49 new: '))).toBe(true);
    // 1,030 listings seen: listing 1 (seen once, at the start) is forgotten, listing 0 is not.
    ({ posts, memory } = await watchRuns(jobs, [[listing(0), listing(1)]], memory));
    expect(titles(posts[0])).toEqual([listing(1).title]);
    expect(memory).toContain(keyDigest(listing(0).url!));
  });
});

/** A memory as versions before digests stored it, converted as start-up converts it. */
async function converted(plain: readonly string[]): Promise<string> {
  const store = createMemoryStore();
  await store.setValue(watchMemoryKey('s1'), JSON.stringify(plain));
  expect(await convertOldWatchMemories(store, ['s1', 'no-memory'])).toBe(1);
  const memory = (await store.getValue(watchMemoryKey('s1')))!;
  // Once: a second start finds nothing left to convert and leaves the memory as it is.
  expect(await convertOldWatchMemories(store, ['s1'])).toBe(0);
  expect(await store.getValue(watchMemoryKey('s1'))).toBe(memory);
  return memory;
}

describe('memories of earlier versions (plain keys), converted at start, post nothing posted before', () => {
  it('a /jobs watch that remembered links posts only the listing it had not', async () => {
    const jobs = jobsFor();
    const memory = await converted([1, 2, 3].map((n) => listing(n).url!));
    const result = applyWatch(await jobs([listing(4), listing(1), listing(2)]), memory);
    expect(result.reply?.embeds?.[0]?.title).toMatch(/^1 new: /);
    expect(titles(result.reply)).toEqual([listing(4).title]);
    expect(applyWatch(await jobs([listing(4), listing(1)]), result.memory).reply).toBeUndefined();
  });

  it('a /host watch that remembered its lines diffs against them', async () => {
    const host = hostFor();
    const memory = await converted(['22/tcp OpenSSH 8.9', '443/tcp nginx 1.24', 'CVE-2023-44487']);
    const now = record([service(443, 'nginx', '1.24'), service(8443, 'nginx', '1.25')], ['CVE-2023-44487']);
    const result = applyWatch(await host(now), memory);
    expect(result.reply?.embeds?.[0]?.description).toBe(
      '```diff\n+ 8443/tcp nginx 1.25\n− 22/tcp OpenSSH 8.9\n```',
    );
    expect(applyWatch(await host(now), result.memory).reply).toBeUndefined();
  });

  it('a /forecast watch that remembered day names does not alert the same day again', async () => {
    const forecast = forecastFor();
    const rainy = await forecast(['Clear', 'Rain', 'Rain', 'Clear', 'Clear']);
    const first = applyWatch(rainy, undefined, 'rain');
    const [day1, day2] = first.reply!.embeds![0]!.fields!.map((f) => f.name);
    const result = applyWatch(rainy, await converted([day1!]), 'rain');
    expect(result.reply?.embeds?.[0]?.fields?.map((f) => f.name)).toEqual([day2]);
    expect(applyWatch(rainy, result.memory, 'rain').reply).toBeUndefined();
  });

  it('an /email status watch that remembered its last event posts only a change', async () => {
    const status = emailStatusCommandFor();
    const memory = await converted(['delivered']);
    expect(applyWatch(await status('delivered'), memory).reply).toBeUndefined();
    const changed = applyWatch(await status('bounced'), memory);
    expect(changed.reply?.embeds?.[0]?.description).toBe('```diff\n+ bounced\n− delivered\n```');
  });
});

describe('a stored memory', () => {
  it('a memory that cannot be read is no memory: the next post is a starting point', async () => {
    const jobs = jobsFor();
    for (const broken of ['{', '42', 'null', '{"v":9}', '{"v":2}', '']) {
      expect(applyWatch(await jobs([listing(1)]), broken).reply?.embeds?.[0]?.title).toMatch(
        /^Starting point: /,
      );
    }
  });
});

const service = (port: number, product: string, version?: string): HostService => ({
  port,
  transport: 'tcp',
  product,
  version,
});
const record = (services: HostService[], vulns: string[] = []): HostRecord => ({
  ip: '8.8.8.8',
  org: 'Google LLC',
  countryName: 'United States',
  hostnames: ['dns.google'],
  ports: services.map((s) => s.port),
  vulns,
  services,
  lastUpdate: new Date('2026-11-20T00:00:00Z'),
});

/** A change of the command's text formatting: every text shown written another way. */
const restyle = (reply: Reply): Reply =>
  mapReplyText(reply, (text) => text.replaceAll(' ', '\u00a0').replaceAll('/tcp', ' (TCP)').toUpperCase());

describe("a watch is unaffected by a change to its command's text formatting", () => {
  it('/jobs: the same listings shown another way are not new; a new one is', async () => {
    const jobs = jobsFor();
    const first = applyWatch(await jobs(range(1, 5)), undefined);
    expect(applyWatch(restyle(await jobs(range(1, 5))), first.memory).reply).toBeUndefined();
    const next = applyWatch(restyle(await jobs([listing(6), ...range(1, 4)])), first.memory);
    expect(next.reply?.embeds?.[0]?.title).toMatch(/^1 new: /);
  });

  it('/host: the record shown another way has no changes; a port added is one', async () => {
    const host = hostFor();
    const before = record([service(22, 'OpenSSH', '8.9'), service(443, 'nginx', '1.24')], ['CVE-2023-44487']);
    const first = applyWatch(await host(before), undefined);
    expect(first.reply?.embeds?.[0]?.title).toBe('Starting point: Host 8.8.8.8');
    expect(applyWatch(restyle(await host(before)), first.memory).reply).toBeUndefined();
    const after = record([...before.services, service(8443, 'nginx', '1.25')], before.vulns);
    const changed = applyWatch(restyle(await host(after)), first.memory);
    expect(changed.reply?.embeds?.[0]?.description).toBe('```diff\n+ 8443/tcp nginx 1.25\n```');
  });

  it('/forecast: temperatures written in another style meet the same alert on the same days', async () => {
    const forecast = forecastFor();
    const first = applyWatch(await forecast(['Clear', 'Rain', 'Clear', 'Clear', 'Clear']), undefined, 'rain');
    expect(first.reply?.embeds?.[0]?.fields).toHaveLength(1);
    const again = restyle(await forecast(['Clear', 'Rain', 'Clear', 'Clear', 'Clear']));
    expect(applyWatch(again, first.memory, 'rain').reply).toBeUndefined();
  });

  it('/email status: the event described another way is no change', async () => {
    const status = emailStatusCommandFor();
    const first = applyWatch(await status('delivered'), undefined);
    expect(applyWatch(restyle(await status('delivered')), first.memory).reply).toBeUndefined();
  });
});

describe('what a watch posts', () => {
  it('/forecast below 0: the days whose low is under the threshold, from the numbers, not the text', async () => {
    const forecast = forecastFor({ lows: [2, -0.4, 1, -5, 3] });
    const result = applyWatch(
      await forecast(['Clear', 'Clear', 'Clear', 'Clear', 'Clear']),
      undefined,
      'below 0',
    );
    expect(result.reply?.embeds?.[0]).toMatchObject({ color: 'warning' });
    expect(result.reply?.embeds?.[0]?.title).toMatch(/^Alert \(below 0\): /);
    expect(result.reply?.embeds?.[0]?.fields).toHaveLength(2);
  });

  it('a command answer without data (an unknown host) is a state without facts', async () => {
    const host = hostFor();
    const first = applyWatch(await host(record([service(443, 'nginx', '1.24')])), undefined);
    const gone = applyWatch(await host(undefined), first.memory);
    expect(gone.reply?.embeds?.[0]?.description).toBe('```diff\n− 443/tcp nginx 1.24\n```');
  });

  it('a reply of a command without a watch is posted as it is, the memory kept', () => {
    const reply: Reply = { text: 'Oslo: 3 °C' };
    expect(applyWatch(reply, 'kept')).toEqual({ reply, memory: 'kept' });
  });
});

describe('a value watch (/email status) is one keyed item', () => {
  it('posts the record first, then its change as one line, then nothing', async () => {
    const status = emailStatusCommandFor();
    const first = applyWatch(await status('delivered'), undefined);
    expect(first.reply?.embeds?.[0]?.title).toMatch(/^Starting point: /);
    const changed = applyWatch(await status('bounced'), first.memory);
    expect(changed.reply?.embeds?.[0]?.description).toBe('```diff\n~ delivered → bounced\n```');
    expect(applyWatch(await status('bounced'), changed.memory).reply).toBeUndefined();
  });
});
