// `npm run bench:top -- <file.cpuprofile> [--by file|function] [--top N]`: where a V8 CPU profile
// (from `npm run bench:profile`) spends its samples, by self time: the functions or files that
// cost the most, idle and garbage collection included, so a change can be aimed and checked.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function where(url: string): string {
  if (url === '') return '(native)';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  return path.startsWith('/') ? relative(ROOT, path) : path;
}

/** Percent of all samples per function (name, file and line) or per file, largest first. */
export function topSelf(profile: Profile, by: 'function' | 'file'): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map<string, number>();
  for (const id of profile.samples) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const file = where(frame.url);
    const key =
      by === 'file' ? file : `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const total = Math.max(1, profile.samples.length);
  return [...counts].map(([k, v]): [string, number] => [k, (100 * v) / total]).sort((a, b) => b[1] - a[1]);
}

function main(args: string[]): void {
  const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
  if (!file) {
    process.stderr.write('usage: npm run bench:top -- <file.cpuprofile> [--by file|function] [--top N]\n');
    process.exit(2);
  }
  const by = args[args.indexOf('--by') + 1] === 'file' ? 'file' : 'function';
  const topAt = args.indexOf('--top');
  const top = topAt === -1 ? 30 : Number(args[topAt + 1]);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  process.stdout.write(`${profile.samples.length} samples, self time by ${by}\n`);
  for (const [key, pct] of topSelf(profile, by).slice(0, top)) {
    process.stdout.write(`${pct.toFixed(1).padStart(5)}%  ${key}\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
