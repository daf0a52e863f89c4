// Sentinel credentials: a distinctive random value in every credential variable, then
// (a) a whole piped console session of herald as a child process against a loopback fake that
// accepts only those values, and (b) the fault matrix in process. No sentinel may appear in
// stdout, stderr, any log line, any reply or any error; the fake must have received every one, so
// that the test proves redaction rather than absence.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { delay, getResponse, http, HttpResponse, type JsonBodyType, type RequestHandler } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/redact.ts';
import { route, sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';
import { runHerald, type Run } from '../support/spawn-herald.ts';
import { BODY_EXCERPT_CHARS } from '../../src/http/failure.ts';
import { COMMAND_CASES, UPSTREAMS, cellsOf, fakeHandlers } from './fault-cells.ts';
import { BODY_MARKER, FAULTS, echoOf, faultHandler, type FaultName, type Upstream } from './faults.ts';
import {
  createHarness,
  errorTexts,
  requestsTo,
  runCell,
  runInvocation,
  runServiceCall,
  type Harness,
} from './harness.ts';
import { CARRIES, SENTINELS, carried, credentialOf, runsIn, sentinelsIn } from './sentinels.ts';

// ---------------------------------------------------------------------------------------------
// (a) the console session

/** Failures on cue, each echoing the request with its credential, as a careless upstream does. */
function sessionFaults(): RequestHandler[] {
  const echo500 = (request: Request, body: (message: string) => object) =>
    HttpResponse.json(body(`${echoOf(request)}: Internal error [${BODY_MARKER}]`), { status: 500 });
  return [
    http.get(route('weather', '/weather'), ({ request }) =>
      new URL(request.url).searchParams.get('q') === 'Leak City'
        ? echo500(request, (message) => ({ cod: 500, message }))
        : undefined,
    ),
    http.get(route('geocoding', '/geocoding/v5/:dataset/:query'), ({ request }) =>
      request.url.includes('Unauthorized')
        ? HttpResponse.json(
            { message: `Not Authorized - Invalid Token: ${echoOf(request)}` },
            { status: 401 },
          )
        : undefined,
    ),
    http.get(route('hostscan', '/:provider/host/:ip'), ({ request, params }) =>
      params.ip === '1.1.1.1'
        ? HttpResponse.json(
            { error: `Request rate limit reached (1/second) for ${echoOf(request)}` },
            { status: 429, headers: { 'retry-after': '30' } },
          )
        : undefined,
    ),
    http.get(route('jobSearch', '/jobs/:country/search/:page'), async ({ request }) => {
      if (new URL(request.url).searchParams.get('what') !== 'slow') return undefined;
      await delay('infinite');
      return undefined;
    }),
    http.post(route('speech', '/text-to-speech/:voiceId'), async ({ request }) => {
      const { text } = (await request.clone().json()) as { text?: string };
      if (text !== 'fail loudly') return undefined;
      return new HttpResponse(
        `<html><head><title>503 Service Temporarily Unavailable</title></head><body><h1>503</h1><p>${echoOf(request)}</p></body></html>`,
        { status: 503, headers: { 'content-type': 'text/html' } },
      );
    }),
    http.post(route('email', '/emails'), async ({ request }) => {
      const { subject } = (await request.clone().json()) as { subject?: string };
      if (subject !== 'bounce me') return undefined;
      return echo500(request, (message) => ({ statusCode: 500, name: 'internal_server_error', message }));
    }),
    http.post(route('analytics', '/properties/:resource'), async ({ request }) => {
      const body = (await request.clone().json()) as {
        dateRanges?: { startDate: string; endDate: string }[];
      };
      const range = body.dateRanges?.[0];
      if (range === undefined || range.startDate !== range.endDate) return undefined;
      return echo500(request, (message) => ({ error: { code: 500, message, status: 'INTERNAL' } }));
    }),
  ];
}

/** Each line of the session and a piece of the answer it must get. */
const SESSION: readonly (readonly [line: string, answer: RegExp])[] = [
  ['/help', /commands?/],
  ['/help jobs', /\/jobs/],
  ['/weather London', /London/],
  ['/weather Atlantis', /No city called|City not found/],
  ['/weather "Leak City"', /The weather service is having trouble/],
  ['/forecast Oslo', /Oslo/],
  ['/geocode "Eiffel Tower" limit:2', /Eiffel|Paris/i],
  ['/geocode "Unauthorized Place"', /rejected herald's credentials/],
  ['/host 8.8.8.8', /8\.8\.8\.8/],
  ['/host not-an-ip', /is not an IP address/],
  ['/host 1.1.1.1', /rate limiting herald; try again in 30 seconds/],
  ['/jobs what:"rust developer" country:de', /rust developer/],
  ['/jobs slow', /took too long/],
  ['/say "Hello from herald" voice:Rachel', /Rachel/],
  ['/say "fail loudly"', /The speech service/],
  ['/voices', /voices?/],
  ['/email send ops@example.com "Deploy done" The release is live.', /Email sent/],
  ['/email send ops@example.com "bounce me" Nothing to see.', /The email service is having trouble/],
  ['/email status 49a3999c-0ce1-4ea6-ab68-afcd6dc2e794', /no email with id/i],
  ['/report 28d', /28 days|Last 28/i],
  ['/report yesterday', /The analytics service/],
];

describe('a whole console session with sentinel credentials', () => {
  let server: SandboxServer;
  let dir: string;
  let run: Run;

  beforeAll(async () => {
    server = await startFake([...sessionFaults(), ...fakeHandlers(SENTINELS)]);
    dir = await mkdtemp(join(tmpdir(), 'herald-sentinel-'));
    const url = (key: Parameters<typeof sandboxBaseUrl>[1]) => sandboxBaseUrl(server.url, key);
    run = await runHerald(
      {
        SANDBOX: 'off',
        LOG_LEVEL: 'debug',
        LOG_FORMAT: 'json',
        COMMAND_TIMEOUT_MS: '4000',
        AUDIO_DIR: join(dir, 'audio'),
        STORE_URL: join(dir, 'herald.sqlite'),
        SAY_DAILY_CHARS: '100000',
        EMAIL_BASE_URL: url('email'),
        EMAIL_ACCESS_TOKEN: SENTINELS.emailToken,
        EMAIL_FROM: 'herald <herald@example.com>',
        ANALYTICS_BASE_URL: url('analytics'),
        ANALYTICS_ACCESS_TOKEN: SENTINELS.analyticsToken,
        ANALYTICS_PROPERTY_ID: '123456789',
        WEATHER_BASE_URL: url('weather'),
        WEATHER_API_KEY: SENTINELS.weatherKey,
        GEOCODING_BASE_URL: url('geocoding'),
        GEOCODING_API_KEY: SENTINELS.geocodingKey,
        SPEECH_BASE_URL: url('speech'),
        SPEECH_API_KEY: SENTINELS.speechKey,
        HOSTSCAN_BASE_URL: url('hostscan'),
        HOSTSCAN_API_KEY: SENTINELS.hostscanKey,
        WEBHOOK_BASE_URL: url('webhook'),
        WEBHOOK_ID: '123456789012345678',
        WEBHOOK_TOKEN: SENTINELS.webhookToken,
        JOBS_BASE_URL: url('jobSearch'),
        JOBS_APP_ID: SENTINELS.jobsAppId,
        JOBS_API_KEY: SENTINELS.jobsApiKey,
      },
      `${SESSION.map(([line]) => line).join('\n')}\n`,
      // Nothing of the parent's own configuration may reach the child.
      { timeoutMs: 30_000, dropServiceVars: true },
    );
  }, 40_000);

  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers every line, the failing ones included, and exits 1 (service errors among them)', () => {
    expect(run.code, run.stderr.slice(-3_000)).toBe(1);
    const blocks = run.stdout.trimEnd().split(/\n\n(?=> \/)/);
    expect(blocks.map((b) => b.split('\n')[0])).toEqual(SESSION.map(([line]) => `> ${line}`));
    SESSION.forEach(([line, answer], i) => expect(blocks[i], line).toMatch(answer));
  });

  it('prints no sentinel on stdout, in any reply', () => {
    expect(sentinelsIn(run.stdout)).toEqual([]);
  });

  it('writes no sentinel in any log line on stderr, at debug level', () => {
    const lines = run.stderr.split('\n').filter((l) => l.trim() !== '');
    const parsed = lines.map((l) => JSON.parse(l) as { msg: string });
    expect(parsed.some((l) => l.msg === 'http.call')).toBe(true);
    expect(parsed.filter((l) => l.msg === 'command.failed').length).toBeGreaterThanOrEqual(6);
    for (const line of lines) expect(sentinelsIn(line), line).toEqual([]);
    // The echoed credentials were there to leak, and were blanked.
    expect(run.stderr).toContain(REDACTED);
  });

  it('did send every credential the session used to the fake', () => {
    const sent = carried(server.requests);
    for (const [service, names] of Object.entries(CARRIES)) {
      if (service === 'webhook') continue; // no command posts to S7; part (b) covers it
      for (const name of names) expect(sent, name).toContain(SENTINELS[name]);
    }
  });
});

/** The loopback fake of every upstream answering with the sentinel credentials, for one describe block. */
function useSentinelHarness(): () => Harness {
  let server: SandboxServer;
  let harness: Harness;
  beforeAll(async () => {
    const base = fakeHandlers(SENTINELS);
    server = await startFake(base);
    harness = createHarness(server, base, SENTINELS);
  });
  afterAll(() => server.close());
  return () => harness;
}

// ---------------------------------------------------------------------------------------------
// (b) the fault matrix in process

describe('the fault matrix with sentinel credentials', () => {
  const harness = useSentinelHarness();

  it.each(cellsOf().map((cell) => [cell.name, cell] as const))(
    '%s leaks no sentinel into the reply, the log or the error',
    async (_name, cell) => {
      const run = await runCell(harness(), cell);
      expect(sentinelsIn(JSON.stringify(run.replies))).toEqual([]);
      expect(sentinelsIn(run.rawLog)).toEqual([]);
      expect(run.errors.length).toBeGreaterThan(0);
      for (const err of run.errors) expect(sentinelsIn(errorTexts(err).join('\n'))).toEqual([]);
      const sent = carried(requestsTo(run, cell.upstream));
      for (const name of CARRIES[cell.upstream.service]!) expect(sent).toContain(SENTINELS[name]);
      // Provider bodies echoed the credential; the log kept the message with it blanked.
      if (['500', '503', '429'].includes(cell.fault)) expect(run.rawLog).toContain(REDACTED);
    },
  );

  /** S7 answers 204 with no body, so a malformed or reshaped body cannot fail it. */
  const WEBHOOK_FAULTS = FAULTS.filter((f: FaultName) => f !== 'malformed JSON' && f !== 'schema');

  it.each(WEBHOOK_FAULTS)(
    'webhook.post × %s (the scheduled reports) leaks no sentinel into the log or the error',
    async (fault) => {
      const upstream = UPSTREAMS.webhookPost;
      const run = await runServiceCall(
        harness(),
        async (services, log) => {
          try {
            await services.webhook!.post({ content: 'Daily analytics summary', username: 'herald' });
          } catch (err) {
            // What the scheduler's catch-all does with a failed job.
            log.error({ err, job: 'analytics-summary' }, 'job.failed');
            throw err;
          }
        },
        [faultHandler(upstream, fault, harness().base)],
      );
      expect(run.outcome.status).toBe('rejected');
      expect(run.errors).toHaveLength(1);
      expect(sentinelsIn(errorTexts(run.errors[0]).join('\n'))).toEqual([]);
      expect(run.log.some((l) => l.msg === 'job.failed')).toBe(true);
      expect(sentinelsIn(run.rawLog)).toEqual([]);
      expect(carried(requestsTo(run, upstream))).toContain(SENTINELS.webhookToken);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// (c) a credential cut at every offset, and a credential echoed in a good answer

/** 500 text/html: `<p>`, `padding` × x, a space, the request's own credential, `</p>`. */
function keyAfter(upstream: Upstream, padding: number): RequestHandler {
  const on = upstream.method === 'get' ? http.get : http.post;
  return on(
    route(upstream.service, upstream.path),
    ({ request }) =>
      new HttpResponse(`<p>${'x'.repeat(padding)} ${credentialOf(request)}</p>`, {
        status: 500,
        headers: { 'content-type': 'text/html' },
      }),
  );
}

/** Every output of a run: the replies, every log line, every error's message, provider text and stack. */
function outputsOf(run: { replies?: unknown; rawLog: string; errors: unknown[] }): string {
  return [JSON.stringify(run.replies ?? []), run.rawLog, ...run.errors.flatMap(errorTexts)].join('\n');
}

describe('a credential cut at every offset of an error page', () => {
  const harness = useSentinelHarness();

  const HOST = COMMAND_CASES.find((c) => c.command === 'host')!;
  const longest = Math.max(...(Object.values(SENTINELS) as string[]).map((s) => s.length));

  it('/host 8.8.8.8 keeps no 8 characters of any key, wherever the key falls in the excerpt', async () => {
    for (let padding = 0; padding <= BODY_EXCERPT_CHARS + 1; padding++) {
      const run = await runInvocation(harness(), HOST, [keyAfter(UPSTREAMS.hostscanHost, padding)]);
      expect(runsIn(outputsOf(run)), `padding ${padding}`).toEqual([]);
      expect(carried(requestsTo(run, UPSTREAMS.hostscanHost))).toContain(SENTINELS.hostscanKey);
      const { providerMessage } = run.log.find((l) => l.msg === 'command.failed')?.err as {
        providerMessage: string;
      };
      // The key starts at excerpt index padding + 1: there it is blanked, whole or cut.
      const excerpt = `${'x'.repeat(padding)} ${REDACTED}`.trim().slice(0, BODY_EXCERPT_CHARS);
      expect(providerMessage, `padding ${padding}`).toBe(excerpt);
    }
  }, 60_000);

  it.each(cellsOf().filter((c) => c.fault === '500' && c.upstream !== UPSTREAMS.hostscanHost))(
    '$name: no 8 characters of any key at the offsets around the cut',
    async (cell) => {
      for (let padding = BODY_EXCERPT_CHARS - longest - 1; padding <= BODY_EXCERPT_CHARS; padding++) {
        const run = await runInvocation(harness(), cell.case, [keyAfter(cell.upstream, padding)]);
        expect(runsIn(outputsOf(run)), `padding ${padding}`).toEqual([]);
        expect(requestsTo(run, cell.upstream).length).toBeGreaterThan(0);
      }
    },
    30_000,
  );

  it('webhook.post: no 8 characters of the token at the offsets around the cut', async () => {
    for (let padding = BODY_EXCERPT_CHARS - longest - 1; padding <= BODY_EXCERPT_CHARS; padding++) {
      const run = await runServiceCall(
        harness(),
        async (services, log) => {
          try {
            await services.webhook!.post({ content: 'Daily analytics summary', username: 'herald' });
          } catch (err) {
            log.error({ err, job: 'analytics-summary' }, 'job.failed');
            throw err;
          }
        },
        [keyAfter(UPSTREAMS.webhookPost, padding)],
      );
      expect(run.outcome.status).toBe('rejected');
      expect(runsIn(outputsOf(run)), `padding ${padding}`).toEqual([]);
      expect(carried(requestsTo(run, UPSTREAMS.webhookPost))).toContain(SENTINELS.webhookToken);
    }
  }, 30_000);
});

describe('a credential echoed in a good answer', () => {
  const harness = useSentinelHarness();

  type Body = Record<string, unknown>;
  const EMAIL = JSON.parse(
    readFileSync(new URL('../fixtures/email/email-iso-timestamp.json', import.meta.url), 'utf8'),
  ) as Body;
  const first = (body: Body, list: string) => (body[list] as Body[])[0]!;
  /** The field of each answer that a reply shows, and how the upstream echoes a value into it. */
  const ECHOES: readonly [label: string, upstream: Upstream, echo: (body: Body, leak: string) => void][] = [
    ['/weather', UPSTREAMS.weatherCurrent, (b, leak) => void (b.name = `Leak ${leak}`)],
    ['/forecast', UPSTREAMS.weatherForecast, (b, leak) => void ((b.city as Body).name = `Leak ${leak}`)],
    ['/geocode', UPSTREAMS.geocodingForward, (b, leak) => void (first(b, 'features').place_name = leak)],
    ['/host', UPSTREAMS.hostscanHost, (b, leak) => void ((b.org = `Org ${leak}`), (b.hostnames = [leak]))],
    ['/jobs', UPSTREAMS.jobSearch, (b, leak) => void (first(b, 'results').title = `Engineer ${leak}`)],
    ['/voices', UPSTREAMS.speechVoices, (b, leak) => void (first(b, 'voices').name = `Rachel ${leak}`)],
    // The fake knows no email by that id: the echo is written into a recorded one (Resend's shape).
    [
      '/email status',
      UPSTREAMS.emailGet,
      (b, leak) => void Object.assign(b, EMAIL, { subject: `Deploy ${leak}` }),
    ],
  ];

  /**
   * The sandbox's real answer with the request's own credential (and every other) written in: a
   * field that long is also cut by the reply's limits (a job title), so the cut case is here too.
   */
  function echoing(upstream: Upstream, echo: (body: Body, leak: string) => void): RequestHandler {
    const on = upstream.method === 'get' ? http.get : http.post;
    return on(route(upstream.service, upstream.path), async ({ request }) => {
      const real = await getResponse(harness().base, request);
      const body = (await real!.json()) as Body;
      echo(body, `${credentialOf(request)} ${Object.values(SENTINELS).join(' ')}`);
      return HttpResponse.json(body as JsonBodyType);
    });
  }

  it.each(ECHOES)(
    '%s shows no credential that the upstream echoed in its data',
    async (label, upstream, echo) => {
      const c = COMMAND_CASES.find((k) => k.label === label)!;
      const run = await runInvocation(harness(), c, [echoing(upstream, echo)]);
      expect(run.replies).toHaveLength(1);
      const replies = JSON.stringify(run.replies);
      expect(runsIn(replies), replies).toEqual([]);
      expect(runsIn(run.rawLog)).toEqual([]);
      // The echoed field did reach the reply, blanked.
      expect(replies).toContain(REDACTED);
      expect(requestsTo(run, upstream).length).toBeGreaterThan(0);
    },
  );
});
