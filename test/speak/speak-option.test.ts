// The `speak` option through the real command list, real clients and the sandbox's S3 and S5 on
// loopback: the spoken version is attached as an mp3, charged to the invoker's /say budget and
// refunded when S5 fails; a failed or refused synthesis leaves the reply whole with one sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCommands, type CommandSettings } from '../../commands/index.ts';
import type { Command } from '../../src/core/command.ts';
import { describeOptions } from '../../src/core/command.ts';
import { countCharacters } from '../../src/domain/speech.ts';
import { sandboxBaseUrl } from '../../src/sandbox/layout.ts';
import { speechHandlers } from '../../src/sandbox/speech.ts';
import { weatherHandlers } from '../../src/sandbox/weather.ts';
import { createSayCharge, createSayRefund, createQuotas, type Quotas } from '../../src/user-limits.ts';
import { createSpeechClient, type SpeechClient } from '../../src/services/speech/client.ts';
import { createWeatherClient, type WeatherClient } from '../../src/services/weather/client.ts';
import { createContext, DISCORD_MEMBER, invoke, NOW } from '../commands/context.ts';
import { startFake, type SandboxServer } from '../support/sandbox-server.ts';

const KEY = 'herald-test-speak-key-3e9a';
const BUDGET = 2_000;
const MEMBER_KEY = `discord:${DISCORD_MEMBER.id}`;

let server: SandboxServer;
let weather: WeatherClient;
let speech: SpeechClient;
let brokenSpeech: SpeechClient;

beforeAll(async () => {
  server = await startFake([
    ...weatherHandlers({ credential: KEY, now: () => NOW.getTime() }),
    ...speechHandlers({ credential: KEY }),
  ]);
  weather = createWeatherClient({ baseUrl: sandboxBaseUrl(server.url, 'weather'), apiKey: KEY });
  const speechConfig = {
    baseUrl: sandboxBaseUrl(server.url, 'speech'),
    apiKey: KEY,
    modelId: 'eleven_multilingual_v2',
    voiceId: '21m00Tcm4TlvDq8ikWAM',
  };
  speech = createSpeechClient(speechConfig);
  // A key S5 refuses with 401: every synthesis fails.
  brokenSpeech = createSpeechClient({ ...speechConfig, apiKey: 'herald-revoked-speech-key-0000' });
});

afterAll(async () => {
  await Promise.all([weather.close(), speech.close(), brokenSpeech.close()]);
  await server.close();
});

function commandsWithBudget(): { quotas: Quotas; commands: Command[] } {
  const quotas = createQuotas({ perUserPerMinute: 100, sayDailyChars: BUDGET, now: () => NOW });
  const settings: CommandSettings = {
    access: { emailUsers: [], emailRoles: [], emailDomains: [], hostUsers: [], hostRoles: [] },
    limits: { perUserPerMinute: 100, sayDailyChars: BUDGET },
    speechModelId: 'eleven_multilingual_v2',
    jobsCountry: 'de',
    chargeSay: createSayCharge(quotas),
    refundSay: createSayRefund(quotas),
  };
  return { quotas, commands: buildCommands(settings) };
}

const remaining = async (quotas: Quotas) => (await quotas.sayChars.consume(MEMBER_KEY, 0)).remaining;
const synthesized = () =>
  server.requests
    .filter((r) => r.method === 'POST' && r.pathname.includes('/text-to-speech/'))
    .map((r) => (JSON.parse(r.body) as { text: string }).text);

describe('speak option', () => {
  it('is a yes/no option of weather, forecast, host, jobs and report only', () => {
    const { commands } = commandsWithBudget();
    const withSpeak = commands.filter((c) => describeOptions(c.options).some((o) => o.name === 'speak'));
    expect(withSpeak.map((c) => c.name).sort()).toEqual(['forecast', 'host', 'jobs', 'report', 'weather']);
    const spec = describeOptions(withSpeak[0]!.options).find((o) => o.name === 'speak');
    expect(spec).toMatchObject({ type: 'string', required: false, choices: ['yes', 'no'], default: 'no' });
  });

  it('attaches the spoken weather as an mp3 and charges its characters to the /say budget', async () => {
    const { quotas, commands } = commandsWithBudget();
    const before = synthesized().length;
    const ctx = createContext({ services: { weather, speech }, actor: DISCORD_MEMBER });
    const reply = await invoke(
      commands.find((c) => c.name === 'weather')!,
      { city: 'Oslo', speak: 'yes' },
      ctx,
    );

    const spoken = synthesized().slice(before);
    expect(spoken).toHaveLength(1);
    expect(spoken[0]).toMatch(/^Oslo, NO: /);
    expect(spoken[0]).toMatch(/degrees Celsius/);
    expect(spoken[0]).not.toMatch(/°|%/);
    const mp3 = reply.attachments?.find((a) => a.filename === 'weather.mp3');
    expect(mp3?.contentType).toBe('audio/mpeg');
    expect(mp3!.bytes[0]).toBe(0xff);
    expect(await remaining(quotas)).toBe(BUDGET - countCharacters(spoken[0]!));
    expect(reply.text).not.toMatch(/audio could not be made/);
  });

  it('without speak:yes, calls no S5 and charges nothing', async () => {
    const { quotas, commands } = commandsWithBudget();
    const before = synthesized().length;
    const ctx = createContext({ services: { weather, speech }, actor: DISCORD_MEMBER });
    const reply = await invoke(
      commands.find((c) => c.name === 'weather')!,
      { city: 'Oslo' },
      ctx,
    );
    expect(reply.attachments ?? []).toEqual([]);
    expect(synthesized()).toHaveLength(before);
    expect(await remaining(quotas)).toBe(BUDGET);
  });

  it('with S5 failing, still replies with the weather, says the audio could not be made and refunds', async () => {
    const { quotas, commands } = commandsWithBudget();
    const ctx = createContext({ services: { weather, speech: brokenSpeech }, actor: DISCORD_MEMBER });
    const reply = await invoke(
      commands.find((c) => c.name === 'weather')!,
      { city: 'Oslo', speak: 'yes' },
      ctx,
    );
    expect(reply.text).toMatch(/^Oslo, NO: /);
    const sentence = reply.text.split('\n').at(-1)!;
    expect(sentence).toMatch(/^The audio could not be made: the speech service .+\.$/);
    expect(sentence.match(/\. /g) ?? []).toEqual([]);
    expect(reply.embeds?.at(-1)).toEqual({ description: sentence, color: 'warning' });
    expect(reply.embeds?.[0]?.title).toMatch(/Oslo/);
    expect(reply.attachments ?? []).toEqual([]);
    expect(await remaining(quotas)).toBe(BUDGET);
    expect(JSON.stringify(reply)).not.toContain('herald-revoked-speech-key');
  });

  it('over the budget, sends the reply without audio and calls no S5', async () => {
    const { quotas, commands } = commandsWithBudget();
    await quotas.sayChars.consume(MEMBER_KEY, BUDGET - 10);
    const before = synthesized().length;
    const ctx = createContext({ services: { weather, speech }, actor: DISCORD_MEMBER });
    const reply = await invoke(
      commands.find((c) => c.name === 'weather')!,
      { city: 'Oslo', speak: 'yes' },
      ctx,
    );
    expect(synthesized()).toHaveLength(before);
    expect(reply.text).toMatch(
      /\nThe audio could not be made: that needs \d+ characters, but your \/say budget has 10 left today/,
    );
    expect(await remaining(quotas)).toBe(10);
  });

  it('says so when the speech service is not configured', async () => {
    const { commands } = commandsWithBudget();
    const ctx = createContext({ services: { weather }, actor: DISCORD_MEMBER });
    const reply = await invoke(
      commands.find((c) => c.name === 'weather')!,
      { city: 'Oslo', speak: 'yes' },
      ctx,
    );
    expect(reply.text).toMatch(
      /\nThe audio could not be made: the speech service is not configured \(set SPEECH_API_KEY\)\.$/,
    );
  });
});

describe('speak option in the reader’s language', () => {
  it('reads a German reply’s units as German words and describes the audio in German', async () => {
    const { commands } = commandsWithBudget();
    const before = synthesized().length;
    const ctx = createContext({ services: { weather, speech }, actor: DISCORD_MEMBER, language: 'de' });
    const reply = await invoke(
      commands.find((c) => c.name === 'weather')!,
      { city: 'Oslo', speak: 'yes' },
      ctx,
    );

    const [spoken] = synthesized().slice(before);
    expect(spoken).toMatch(/Grad Celsius/);
    expect(spoken).toMatch(/Prozent/);
    expect(spoken).not.toMatch(/degrees|percent|°|%/);
    const mp3 = reply.attachments?.find((a) => a.filename === 'weather.mp3');
    expect(mp3?.description).toBe(`Gesprochene Fassung: ${spoken}`);
  });

  it('with S5 failing, says in French that the audio could not be made', async () => {
    const { commands } = commandsWithBudget();
    const ctx = createContext({
      services: { weather, speech: brokenSpeech },
      actor: DISCORD_MEMBER,
      language: 'fr',
    });
    const reply = await invoke(
      commands.find((c) => c.name === 'weather')!,
      { city: 'Oslo', speak: 'yes' },
      ctx,
    );
    const sentence = reply.text.split('\n').at(-1)!;
    expect(sentence).toMatch(/^L'audio n'a pas pu être créé : .+\.$/);
    expect(sentence).not.toMatch(/speech service|could not/);
    expect(reply.embeds?.at(-1)).toEqual({ description: sentence, color: 'warning' });
  });
});
