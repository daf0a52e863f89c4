// What a server process of the interactions bench tells the bench over IPC: on "stats", its CPU
// time, the interactions it parsed, its event-loop delay since the last "stats" (so each scenario
// reads its own) and its resident memory; on "stop", it closes and exits.
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface ServerStats {
  cpu: NodeJS.CpuUsage;
  /** Interactions parsed and handed on (never a bad signature's). */
  parsed: number;
  /** Event-loop delay since the previous "stats", in ms. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** Resident memory now, in bytes. */
  rss: number;
}

export function answerBenchIpc(parsed: () => number, stop: () => Promise<void>): void {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  process.on('message', (message) => {
    if (message === 'stats') {
      const stats: ServerStats = {
        cpu: process.cpuUsage(),
        parsed: parsed(),
        loopDelayP99Ms: delay.percentile(99) / 1e6,
        loopDelayMaxMs: delay.max / 1e6,
        rss: process.memoryUsage.rss(),
      };
      delay.reset();
      process.send?.(stats);
    }
    if (message === 'stop') void stop().then(() => process.exit(0));
  });
}
