// Charts are loaded on first use: importing the commands, jobs and console adapter
// loads neither the drawing code nor resvg's native binary; drawing the first chart loads both.
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
await drawChart({ filename: 'c.png', title: 't', xLabels: ['a', 'b'], xAxisTitle: 'x', yAxisTitle: 'y',
  series: [{ name: 's', values: [1, 2] }], alt: 'a' });
console.log(JSON.stringify({ before, idle, after: native() }));
process.exit(0);
`;

describe('chart loading', () => {
  it('loads resvg only when the first chart is drawn', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', PROBE], { cwd: ROOT });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
      before: false,
      idle: false,
      after: true,
    });
  });
});
