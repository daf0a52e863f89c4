// `npx node bench/command-overhead.ts`: the CPU a /weather command spends outside the weather client,
// in real waves. The bot (as bench/commands.ts wires it) and a bare weather client take turns,
// in rounds of waves of 200 distinct cities against the sandbox (50 ms, in its own process); each
// round's CPU per command is this thread's. Their difference is the dispatcher, input parsing,
// rate limit, command, formatting, redaction and log line, with the caches as cold as a burst
// leaves them (bench/micro-dispatch.ts measures the same part hot, without the network).
import { fork } from 'node:child_process';
import { loadConfig } from '../src/config/index.ts';
import { planServices, resolveServiceConfigs } from '../src/sandbox/resolve.ts';
import { closeServices, createServices } from '../src/services/index.ts';
import { cityName, createBot, weatherCommand } from './commands.ts';

const WAVE = Number(process.env.WAVE ?? 200);
const PER_ROUND = Number(process.env.PER_ROUND ?? 2_000);
const ROUNDS = Number(process.env.ROUNDS ?? 8);

const sandbox = fork(new URL('./sandbox-process.ts', import.meta.url));
const url = await new Promise<string>((resolve) => {
  sandbox.once('message', (message: { url: string }) => resolve(message.url));
});
const bot = createBot(url);
bot.wire.stop();
const config = loadConfig({ SANDBOX: 'on' });
const bare = createServices(resolveServiceConfigs(config, planServices(config), url));
const { weather } = bare;
if (!weather) throw new Error('the sandbox configuration has no weather service');
const client = weather;

let next = 0;
async function round(isBot: boolean): Promise<number> {
  const cpu = process.threadCpuUsage();
  for (let done = 0; done < PER_ROUND; done += WAVE) {
    const wave: Promise<unknown>[] = [];
    for (let i = 0; i < WAVE; i++) {
      const city = cityName(isBot ? 'Ovb' : 'Ovc', next++);
      wave.push(
        isBot
          ? weatherCommand(bot, city, i % 500)
          : client.current({ city }, { signal: new AbortController().signal }),
      );
    }
    await Promise.all(wave);
  }
  const used = process.threadCpuUsage(cpu);
  return (used.user + used.system) / PER_ROUND;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const botUs: number[] = [];
const clientUs: number[] = [];
for (let i = 0; i < ROUNDS + 2; i++) {
  const b = await round(true);
  const c = await round(false);
  // The first two rounds warm both paths up.
  if (i >= 2) {
    botUs.push(b);
    clientUs.push(c);
  }
}
process.stdout.write(
  `waves of ${WAVE}, ${ROUNDS} rounds of ${PER_ROUND}: bot /weather ${median(botUs).toFixed(0)} µs CPU per command ` +
    `(min ${Math.min(...botUs).toFixed(0)}), weather.current alone ${median(clientUs).toFixed(0)} ` +
    `(min ${Math.min(...clientUs).toFixed(0)}): outside the client ${(median(botUs) - median(clientUs)).toFixed(0)} µs\n`,
);
await bot.close();
await closeServices(bare);
sandbox.kill();
