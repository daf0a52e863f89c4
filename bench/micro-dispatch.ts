// Micro-measure: CPU per /weather command through the real dispatcher, registry, command, quotas
// and logger, against a fake weather service that answers at once (no HTTP): what herald spends
// outside the client call.
import type { Invocation } from '../src/core/adapter.ts';
import type { Reply } from '../src/core/reply.ts';
import type { Services } from '../src/core/services.ts';
import type { CurrentWeather } from '../src/services/weather/client.ts';
import { createBenchDispatcher } from './commands.ts';

const N = Number(process.env.N ?? 20_000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const answer = (city: string): CurrentWeather => ({
  city,
  country: 'GB',
  units: 'metric',
  temp: 11.3,
  feelsLike: 9.8,
  humidity: 81,
  windSpeed: 4.1,
  conditions: [{ main: 'Clouds', description: 'broken clouds', icon: '04d' }],
  observedAt: new Date(Date.now() - 120_000),
  timezoneOffsetS: 0,
});
const services = {
  weather: {
    current: (q: { city: string }) => Promise.resolve(answer(q.city)),
    forecast: () => Promise.resolve(undefined),
    close: () => Promise.resolve(),
  },
} as unknown as Services;
const dispatcher = createBenchDispatcher(services);
let ok = 0;
function invocation(i: number): Invocation {
  return {
    command: 'weather',
    rawInput: { city: `City${i}` },
    actor: { platform: 'discord', id: `10000000000000${i % 500}`, displayName: `user${i % 500}`, roles: [] },
    channelId: '200000000000000001',
    signal: new AbortController().signal,
    respond(reply: Reply) {
      if (reply.embeds?.[0]?.title?.includes('Weather in')) ok++;
      return Promise.resolve();
    },
  };
}
async function wave(n: number, size: number, offset: number) {
  for (let done = 0; done < n; done += size) {
    const w: Promise<unknown>[] = [];
    for (let i = 0; i < size; i++) w.push(dispatcher.onInvocation(invocation(offset + done + i)));
    await Promise.all(w);
  }
}
await wave(N, 200, 0); // warm-up
const perCommand: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  ok = 0;
  const cpu = process.threadCpuUsage();
  await wave(N, 200, (round + 1) * N);
  const used = process.threadCpuUsage(cpu);
  if (ok !== N) throw new Error(`only ${ok} of ${N} commands answered with the weather`);
  perCommand.push((used.user + used.system) / N);
}
perCommand.sort((a, b) => a - b);
process.stdout.write(
  `µs CPU per /weather command outside the client, ${ROUNDS} rounds of ${N}: min ${perCommand[0]!.toFixed(1)}, median ${perCommand[Math.floor(ROUNDS / 2)]!.toFixed(1)}\n`,
);
