// deploy/Dockerfile read the way the tests need it: its stages, their instructions and ENV.

export interface Instruction {
  op: string;
  args: string;
}

/** The Dockerfile's stages, each a list of instructions (continuation lines joined, comments out). */
export function dockerStages(text: string): Instruction[][] {
  const stages: Instruction[][] = [];
  const joined = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  for (const line of joined.split('\n')) {
    const m = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const [, op, args] = m as unknown as [string, string, string];
    if (op === 'FROM') stages.push([]);
    stages.at(-1)?.push({ op, args: args.trim() });
  }
  return stages;
}

/** ENV A=1 B=2 as pairs. */
export function envOf(stage: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of stage.filter((i) => i.op === 'ENV'))
    for (const [, k, v] of args.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)) env[k!] = v!;
  return env;
}
