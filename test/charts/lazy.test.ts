// Charts are loaded on first use: importing the commands, jobs and console adapter loads none of
// the drawing code; and resvg's native binary is never loaded in the bot's own process, not even
// once charts are drawn: it lives in the renderer process, which gives its memory back when idle.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/spawn-herald.ts';

const run = promisify(execFile);

const PROBE = `
const native = () =>
  process.report.getReport().sharedObjects.some((p) => p.includes('resvg'));
await import('./commands/index.ts');
await import('./jobs/index.ts');
await import('./adapters/console/adapter.ts');
const before = native();
const { drawChart } = await import('./src/charts/index.ts');
const idle = native();
const chart = await drawChart({ filename: 'c.png', title: 't', xLabels: ['a', 'b'], xAxisTitle: 'x', yAxisTitle: 'y',
  series: [{ name: 's', values: [1, 2] }], alt: 'a' });
console.log(JSON.stringify({ before, idle, after: native(), drawn: chart.bytes.byteLength > 0 }));
`;

describe('chart loading', () => {
  it('never loads resvg in the bot’s process, before or after a chart is drawn', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', PROBE], { cwd: ROOT });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
      before: false,
      idle: false,
      after: false,
      drawn: true,
    });
  });
});
