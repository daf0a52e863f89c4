// docs/ARCHITECTURE.md's import arrows, checked by reading every file's imports. The domain facts
// (src/domain/) are a leaf every layer may import; no rule below forbids them, and none is exempt.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

interface Import {
  file: string;
  target: string;
  typeOnly: boolean;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : full.endsWith('.ts') ? [full] : [];
  });
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const out: Import[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?(?:[\s\S]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) {
    const spec = m[3]!;
    const target = spec.startsWith('.') ? relative(ROOT, resolve(dirname(file), spec)) : spec;
    out.push({ file: relative(ROOT, file), target, typeOnly: Boolean(m[2]) });
  }
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const spec = m[1]!;
    out.push({
      file: relative(ROOT, file),
      target: spec.startsWith('.') ? relative(ROOT, resolve(dirname(file), spec)) : spec,
      typeOnly: false,
    });
  }
  return out;
}

const all = ['src', 'commands', 'adapters', 'jobs'].flatMap((d) => walk(join(ROOT, d))).flatMap(importsOf);
const from = (prefix: string) => all.filter((i) => i.file.startsWith(prefix));
const isIn = (i: Import, prefix: string) => i.target.startsWith(prefix);
const PLATFORM_SDKS = [
  'discord.js',
  '@discordjs/rest',
  'discord-api-types',
  '@slack/bolt',
  '@slack/web-api',
  'ws',
];
/** A chat platform's SDK, or a part of one (`discord-api-types/v10`, any `@discordjs/` or `@slack/` package). */
const isPlatformSdk = (target: string) =>
  PLATFORM_SDKS.some((sdk) => target === sdk || target.startsWith(`${sdk}/`)) ||
  target.startsWith('@discordjs/') ||
  target.startsWith('@slack/');

function violations(list: Import[], bad: (i: Import) => boolean): string[] {
  return list.filter(bad).map((i) => `${i.file} -> ${i.target}`);
}

describe('architecture', () => {
  it('reads a plausible number of imports', () => {
    expect(all.length).toBeGreaterThan(50);
  });

  it('the domain facts import nothing of herald and no library', () => {
    expect(violations(from('src/domain/'), (i) => !isIn(i, 'src/domain/'))).toEqual([]);
  });

  it('commands import only core, errors, domain facts and service types', () => {
    expect(
      violations(
        from('commands/'),
        (i) =>
          isIn(i, 'adapters') ||
          isIn(i, 'jobs') ||
          isIn(i, 'src/http') ||
          isIn(i, 'src/sandbox') ||
          isIn(i, 'src/store') ||
          i.target === 'undici' ||
          isPlatformSdk(i.target) ||
          (isIn(i, 'src/services') && !i.typeOnly),
      ),
    ).toEqual([]);
  });

  it('adapters never import commands, services, jobs or http', () => {
    expect(
      violations(
        from('adapters/'),
        (i) =>
          isIn(i, 'commands') ||
          isIn(i, 'src/services') ||
          isIn(i, 'jobs') ||
          isIn(i, 'src/http') ||
          isIn(i, 'src/store'),
      ),
    ).toEqual([]);
  });

  it('each adapter uses only its own platform SDK', () => {
    expect(violations(from('adapters/discord/'), (i) => i.target.startsWith('@slack/'))).toEqual([]);
    expect(
      violations(
        from('adapters/slack/'),
        (i) =>
          i.target === 'discord.js' ||
          i.target.startsWith('@discordjs/') ||
          i.target.startsWith('discord-api-types'),
      ),
    ).toEqual([]);
    expect(violations(from('adapters/console/'), (i) => isPlatformSdk(i.target))).toEqual([]);
  });

  it('jobs never import commands, adapters or croner', () => {
    expect(
      violations(
        from('jobs/'),
        (i) =>
          isIn(i, 'commands') ||
          isIn(i, 'adapters') ||
          i.target === 'croner' ||
          (isIn(i, 'src/services') && !i.typeOnly),
      ),
    ).toEqual([]);
  });

  it('services import only http, errors and zod, and never each other', () => {
    expect(
      violations(from('src/services/'), (i) => {
        if (
          isIn(i, 'src/core') ||
          isIn(i, 'commands') ||
          isIn(i, 'adapters') ||
          isIn(i, 'jobs') ||
          isIn(i, 'src/store') ||
          isIn(i, 'src/sandbox')
        )
          return true;
        // Files at src/services/ itself (index.ts builds the bag, deps.ts) sit above the folders.
        const own = /^src\/services\/([^/.]+)\//.exec(i.file)?.[1];
        const m = /^src\/services\/([^/.]+)\//.exec(i.target);
        return own !== undefined && m !== null && m[1] !== own;
      }),
    ).toEqual([]);
  });

  it('of the services, only the chat webhook (S7) talks through a platform SDK', () => {
    expect(
      violations(
        from('src/services/').filter((i) => !i.file.startsWith('src/services/webhook/')),
        (i) =>
          isPlatformSdk(i.target) || i.target.startsWith('@slack/') || i.target.startsWith('@discordjs/'),
      ),
    ).toEqual([]);
  });

  it('http imports only undici, errors, the domain, redaction and abort leaves and its own files', () => {
    expect(
      violations(
        from('src/http/'),
        (i) =>
          i.target.startsWith('src/') &&
          !isIn(i, 'src/http') &&
          !isIn(i, 'src/domain/') &&
          i.target !== 'src/errors.ts' &&
          i.target !== 'src/redact.ts' &&
          i.target !== 'src/abort.ts',
      ),
    ).toEqual([]);
  });

  it('core never imports commands, adapters, jobs, service values or croner', () => {
    expect(
      violations(
        from('src/core/'),
        (i) =>
          isIn(i, 'commands') ||
          isIn(i, 'adapters') ||
          isIn(i, 'jobs') ||
          (isIn(i, 'src/services') && !i.typeOnly) ||
          i.target === 'croner',
      ),
    ).toEqual([]);
  });

  it('core never imports the scheduling engine: the arrow points from src/schedule to core only', () => {
    expect(violations(from('src/core/'), (i) => isIn(i, 'src/schedule'))).toEqual([]);
  });

  it('the scheduling engine never imports commands, adapters, jobs or service values; only its time arithmetic uses croner', () => {
    expect(
      violations(
        from('src/schedule/'),
        (i) =>
          isIn(i, 'commands') ||
          isIn(i, 'adapters') ||
          isIn(i, 'jobs') ||
          (isIn(i, 'src/services') && !i.typeOnly) ||
          (i.target === 'croner' && i.file !== 'src/schedule/when.ts'),
      ),
    ).toEqual([]);
  });

  it('the configuration files live in src/config/, none at src/ root', () => {
    const stray = readdirSync(join(ROOT, 'src')).filter((f) => /^config.*\.ts$/.test(f));
    expect(stray).toEqual([]);
  });

  it('core names no command: no behaviour of core is keyed on a command name', () => {
    // The command names as the definitions in commands/ spell them, and every string literal of
    // core's code (comments left out) that is exactly one of them, with or without its "/".
    const names = new Set(
      walk(join(ROOT, 'commands')).flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(/\bname: '([a-z][a-z0-9 -]*)'/g)].map((m) => m[1]!),
      ),
    );
    expect(names).toContain('jobs');
    const named = ['src/core', 'src/schedule']
      .flatMap((dir) => walk(join(ROOT, dir)))
      .flatMap((f) => {
        const code = readFileSync(f, 'utf8')
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/^\s*\/\/.*$/gm, '');
        return [...code.matchAll(/'([^'\n]*)'|"([^"\n]*)"|`([^`$\n]*)`/g)]
          .map((m) => (m[1] ?? m[2] ?? m[3] ?? '').replace(/^\//, ''))
          .filter((text) => names.has(text))
          .map((text) => `${relative(ROOT, f)}: '${text}'`);
      });
    expect(named).toEqual([]);
  });

  it('the renderers (Reply -> platform message, for adapters and scheduled posts alike) are pure', () => {
    expect(
      violations(
        from('src/render/'),
        (i) =>
          isPlatformSdk(i.target) ||
          i.target.startsWith('@slack/') ||
          i.target === 'undici' ||
          isIn(i, 'adapters') ||
          isIn(i, 'commands') ||
          isIn(i, 'jobs') ||
          isIn(i, 'src/services') ||
          isIn(i, 'src/http') ||
          isIn(i, 'src/store') ||
          (i.target.startsWith('src/') &&
            !isIn(i, 'src/render/') &&
            !isIn(i, 'src/domain/') &&
            i.target !== 'src/core/reply.ts' &&
            i.target !== 'src/core/command.ts'),
      ),
    ).toEqual([]);
  });

  it('the abort race (used by the dispatcher, the HTTP core and scheduled runs) imports nothing', () => {
    expect(from('src/abort.ts').map((i) => i.target)).toEqual([]);
  });

  it('the formatting module (used by commands, jobs and adapters) imports only the domain', () => {
    expect(from('src/format.ts').filter((i) => !isIn(i, 'src/domain/'))).toEqual([]);
  });

  it('the catalogue (used by errors, the dispatcher, commands and adapters) imports only the domain, the formatting leaf and i18next', () => {
    expect(
      from('src/i18n/').filter(
        (i) =>
          !isIn(i, 'src/domain/') &&
          !isIn(i, 'src/i18n/') &&
          i.target !== 'src/format.ts' &&
          i.target !== 'i18next',
      ),
    ).toEqual([]);
  });

  it('the redaction module (used by logs, error text and replies) imports nothing', () => {
    expect(from('src/redact.ts').map((i) => i.target)).toEqual([]);
  });

  it('the sandbox never imports what the bot runs on', () => {
    expect(
      violations(
        from('src/sandbox/'),
        (i) =>
          isIn(i, 'src/services') || isIn(i, 'commands') || isIn(i, 'adapters') || isIn(i, 'src/http/client'),
      ),
    ).toEqual([]);
  });

  it('only the entry points (main.ts, app.ts, run-job.ts, register-commands.ts) import adapters and jobs', () => {
    const entryPoints = ['src/main.ts', 'src/app.ts', 'src/run-job.ts', 'src/register-commands.ts'];
    expect(
      violations(
        all.filter((i) => i.file.startsWith('src/') && !entryPoints.includes(i.file)),
        (i) => isIn(i, 'adapters') || (isIn(i, 'jobs') && !i.typeOnly),
      ),
    ).toEqual([]);
  });

  it('has no import circle: no file reaches itself through its imports, type imports included', () => {
    expect(circles()).toEqual([]);
  });

  it("src/schedule/'s files never import each other in a loop: a slot's path goes one way", () => {
    expect(circles((file) => file.startsWith('src/schedule/'))).toEqual([]);
  });
});

/**
 * The groups of files that import each other round in a circle (Tarjan's strongly connected
 * components), among the files `within` admits.
 */
function circles(within: (file: string) => boolean = () => true): string[][] {
  const edges = new Map<string, string[]>();
  for (const i of all) {
    if (!i.target.endsWith('.ts') || !within(i.file) || !within(i.target)) continue;
    edges.set(i.file, [...(edges.get(i.file) ?? []), i.target]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) found.push(group.sort());
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return found;
}
