// The parent's side of the bot process: forks bot-process.ts, answers its requests for the
// sandbox's counts and latency changes, and resolves with its results.
import { fork } from 'node:child_process';
import type { BotMessage, BotPlan, BotResults, HostMessage } from './bot-process.ts';
import type { Upstream } from './upstream.ts';

export function runBotProcess(
  upstream: Upstream,
  plan: BotPlan,
  progress: (text: string) => void,
): Promise<BotResults> {
  // The same V8 flag as `npm start`: a smaller young generation keeps bursts from inflating RSS.
  const child = fork(new URL('./bot-process.ts', import.meta.url), [], {
    stdio: 'inherit',
    execArgv: [...process.execArgv, '--max-semi-space-size=4'],
  });
  const send = (message: HostMessage) => child.send(message);
  return new Promise<BotResults>((resolve, reject) => {
    let results: BotResults | undefined;
    child.on('message', (message: BotMessage) => {
      if (message.type === 'progress') progress(message.text);
      else if (message.type === 'done') results = message.results;
      else if (message.type === 'collect') {
        void upstream.collect().then((value) => send({ type: 'reply', id: message.id, value }));
      } else {
        void Promise.resolve(upstream.setLatency(message.ms)).then(() =>
          send({ type: 'reply', id: message.id }),
        );
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (results) resolve(results);
      else reject(new Error(`the bot process exited with ${code} before finishing`));
    });
    send({ type: 'run', plan });
  });
}
