// The deployment recipes in deploy/ as far as this machine can check them without Docker,
// Kubernetes or systemd: every variable they set is one .env.example documents (a misspelt one
// would be silently ignored), and each keeps the promises its comments make: health endpoints on
// every interface, Redis shared by two replicas, probes on /readyz and /healthz, credentials from
// a Secret, a non-root image whose command is node itself.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { SECRET_VARIABLES, isSecretVariable } from '../../src/config/secret-files.ts';
import { dockerStages, envOf } from '../support/dockerfile.ts';
import { ROOT } from '../support/spawn-herald.ts';

const read = (path: string) => readFile(join(ROOT, path), 'utf8');
const envExample = await read('.env.example');
const compose = await read('deploy/compose.yaml');
const kubernetes = await read('deploy/kubernetes/herald.yaml');
const systemd = await read('deploy/herald.service');
const dockerfile = await read('deploy/Dockerfile');

/** Every name .env.example documents: its `NAME=` lines and the names its comments explain. */
const documented = new Set(envExample.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b/g));

/** A recipe may name a documented variable, or `<NAME>_FILE` for a documented credential. */
function isDocumented(name: string): boolean {
  if (documented.has(name)) return true;
  const secret = name.endsWith('_FILE') ? name.slice(0, -'_FILE'.length) : undefined;
  return (
    secret !== undefined &&
    isSecretVariable(secret) &&
    documented.has(secret) &&
    envExample.includes('<NAME>_FILE=')
  );
}

/** The environment variables a recipe sets, commented-out examples included (they get uncommented). */
function variablesOf(text: string, format: 'compose' | 'kubernetes' | 'systemd' | 'docker'): string[] {
  const pattern = {
    compose: /^\s*#?\s*([A-Z][A-Z0-9_]*):/gm,
    kubernetes: /\bname:\s*([A-Z][A-Z0-9_]*)\b/g,
    systemd: /^#?\s*Environment=([A-Z][A-Z0-9_]*)=/gm,
    docker: /\b([A-Z][A-Z0-9_]*)=/g,
  }[format];
  return [...text.matchAll(pattern)].map((m) => m[1]!);
}

describe('deploy/ recipes name only documented variables', () => {
  const recipes = [
    ['deploy/compose.yaml', compose, 'compose'],
    ['deploy/kubernetes/herald.yaml', kubernetes, 'kubernetes'],
    ['deploy/herald.service', systemd, 'systemd'],
    [
      'deploy/Dockerfile',
      dockerfile
        .split('\n')
        .filter((l) => !l.startsWith('#'))
        .join('\n'),
      'docker',
    ],
  ] as const;

  it.each(recipes)('%s', (_path, text, format) => {
    const names = variablesOf(text, format);
    expect(names.length).toBeGreaterThan(1);
    expect(names.filter((n) => !isDocumented(n))).toEqual([]);
  });

  it('would catch a misspelt variable and a file variant of a non-credential', () => {
    expect(
      variablesOf('    environment:\n      HEALTH_HOSTS: 0.0.0.0\n', 'compose').filter(
        (n) => !isDocumented(n),
      ),
    ).toEqual(['HEALTH_HOSTS']);
    expect(isDocumented('DISCORD_TOKEN_FILE')).toBe(true);
    expect(isDocumented('LOG_LEVEL_FILE')).toBe(false);
  });
});

describe('deploy/Dockerfile', () => {
  const [build, run] = dockerStages(dockerfile) as [
    ReturnType<typeof dockerStages>[number],
    ReturnType<typeof dockerStages>[number],
  ];
  const one = (stage: typeof run, op: string) => stage.filter((i) => i.op === op).map((i) => i.args);

  it('builds in two stages on the official Node 24 slim image', () => {
    expect(dockerStages(dockerfile)).toHaveLength(2);
    expect(one(build, 'FROM')[0]).toMatch(/^node:24-slim\b/);
    expect(one(run, 'FROM')[0]).toBe('node:24-slim');
    expect(one(build, 'RUN')).toEqual(['deploy/install.sh']);
  });

  it('runs as the non-root node user, node itself as PID 1 (exec form, no npm), with a HEALTHCHECK on /healthz', async () => {
    expect(one(run, 'USER')).toEqual(['node']);
    const cmd = JSON.parse(one(run, 'CMD')[0]!) as string[];
    expect(cmd).toEqual(['deploy/start.sh']);
    expect(await read('deploy/start.sh')).toMatch(/^exec \/bin\/sh -c "\$start/m);
    expect(one(run, 'HEALTHCHECK')[0]).toMatch(/CMD \["node", "deploy\/healthcheck\.mjs"\]$/);
    expect(await read('deploy/healthcheck.mjs')).toContain('/healthz');
  });

  it('serves health on every interface and keeps the SQLite store on a volume', () => {
    const env = envOf(run);
    expect(env.HEALTH_HOST).toBe('0.0.0.0');
    const volumes = JSON.parse(one(run, 'VOLUME')[0]!) as string[];
    expect(volumes).toContain(dirname(env.STORE_URL!));
  });
});

describe('deploy/compose.yaml', () => {
  it('runs two replicas of herald sharing a Redis, health on every interface', () => {
    expect(compose).toMatch(/^ {2}redis:\n {4}image: redis:/m);
    expect(compose).toMatch(/^ {6}REDIS_URL: redis:\/\/redis:6379$/m);
    expect(compose).toMatch(/^ {6}HEALTH_HOST: 0\.0\.0\.0$/m);
    expect(compose).toMatch(/deploy:\n {6}replicas: 2\n/);
    expect(compose).toMatch(/dockerfile: deploy\/Dockerfile/);
  });
});

describe('deploy/kubernetes/herald.yaml', () => {
  const documents = kubernetes.split(/^---$/m);
  const kind = (k: string) => documents.find((d) => new RegExp(`^kind: ${k}$`, 'm').test(d)) ?? '';
  /** The `key: value` lines of a document's block (`stringData:`, `data:`), comments left out. */
  const entries = (document: string, block: string): Record<string, string> => {
    const body = new RegExp(`^${block}:\\n((?: {2}.*\\n?)*)`, 'm').exec(document)?.[1] ?? '';
    return Object.fromEntries(
      [...body.matchAll(/^ {2}([A-Za-z0-9_-]+): ?(.*)$/gm)].map((m) => [
        m[1]!,
        m[2]!.replace(/^'(.*)'$/, '$1'),
      ]),
    );
  };
  const secret = entries(kind('Secret'), 'stringData');
  const configMap = entries(kind('ConfigMap'), 'data');
  /** The Deployment's `{ name: X_FILE, value: /run/secrets/herald/key }` pairs. */
  const files = Object.fromEntries(
    [
      ...kind('Deployment').matchAll(
        /\{ name: ([A-Z0-9_]+)_FILE, value: \/run\/secrets\/herald\/([a-z0-9-]+) \}/g,
      ),
    ].map((m) => [m[1]!, m[2]!]),
  );

  /** The environment a pod gets with `fill` in its Secret and ConfigMap: files written, as Kubernetes mounts them. */
  async function podEnv(fill: { secret?: Record<string, string>; config?: Record<string, string> }) {
    const dir = await mkdtemp(join(tmpdir(), 'herald-k8s-'));
    const env: Record<string, string> = { ...configMap, ...fill.config };
    for (const [name, value] of [
      ...kind('Deployment').matchAll(/\{ name: ([A-Z0-9_]+), value: '?([^'}]*?)'? \}/g),
    ].map((m) => [m[1]!, m[2]!] as const))
      if (!name.endsWith('_FILE')) env[name] = value;
    for (const [variable, key] of Object.entries(files)) {
      await writeFile(join(dir, key), `${{ ...secret, ...fill.secret }[key] ?? ''}\n`);
      env[`${variable}_FILE`] = join(dir, key);
    }
    return { env, done: () => rm(dir, { recursive: true, force: true }) };
  }

  it('says in its first lines how to build and push the image, and names a pushed version, never :latest', () => {
    const head = kubernetes.split('\n').slice(0, 8).join('\n');
    expect(head).toMatch(/docker build -f deploy\/Dockerfile -t (\S+) \.\n#\s+docker push \1/);
    const image = /^\s+image: (\S+)$/m.exec(kind('Deployment'))?.[1];
    expect(image).toBe(/docker push (\S+)/.exec(head)?.[1]);
    expect(image).not.toMatch(/:latest$|^[^:]+$/);
  });

  it('has a Secret entry read through <NAME>_FILE for every credential of every mode and provider', () => {
    const needed = SECRET_VARIABLES.filter((v) => !['STORE_URL', 'WEBHOOK_TOKEN'].includes(v));
    expect(Object.keys(files).sort()).toEqual([...needed].sort());
    for (const key of Object.values(files)) expect(secret, key).toHaveProperty(key);
    for (const name of ['SLACK_SIGNING_SECRET', 'WEATHER_API_KEY', 'JOBS_API_KEY'])
      expect(files).toHaveProperty(name);
    // What is not a secret but names the application: in the ConfigMap, documented.
    for (const name of ['DISCORD_APPLICATION_ID', 'DISCORD_PUBLIC_KEY', 'DISCORD_MODE'])
      expect(configMap).toHaveProperty(name);
    for (const name of Object.keys(configMap)) expect(isDocumented(name), name).toBe(true);
  });

  const modes = {
    'Discord gateway': {
      secret: { 'discord-token': 'discord-token-k8s' },
      config: { DISCORD_APPLICATION_ID: '123456789012345678' },
    },
    'Discord HTTP': {
      secret: { 'discord-token': 'discord-token-k8s' },
      config: {
        DISCORD_APPLICATION_ID: '123456789012345678',
        DISCORD_MODE: 'http',
        DISCORD_PUBLIC_KEY: 'a'.repeat(64),
      },
    },
    'Slack Socket Mode': { secret: { 'slack-bot-token': 'xoxb-k8s', 'slack-app-token': 'xapp-k8s' } },
    'Slack HTTP': { secret: { 'slack-bot-token': 'xoxb-k8s', 'slack-signing-secret': 'k8s-signing-secret' } },
  } as const;
  it.each(Object.entries(modes))(
    '%s: filled in, the pod starts with health on PORT on every interface, where the probes ask',
    async (mode, fill) => {
      const pod = await podEnv(fill);
      try {
        const config = loadConfig(pod.env);
        expect(config.discord !== undefined || config.slack !== undefined, mode).toBe(true);
        expect(config.health).toMatchObject({ port: 3000, host: '0.0.0.0' });
        expect(config.redisUrl).toBe('redis://herald-redis:6379');
        if (mode === 'Discord HTTP') expect(config.discord?.interactionsPath).toBe('/interactions');
        if (mode === 'Slack HTTP')
          expect(config.slack).toMatchObject({
            appToken: undefined,
            signingSecret: 'k8s-signing-secret',
            port: 3000,
          });
      } finally {
        await pod.done();
      }
    },
  );

  it('with the Secret and ConfigMap as shipped (all empty), the configuration is still valid', async () => {
    const pod = await podEnv({});
    try {
      expect(() => loadConfig(pod.env)).not.toThrow();
    } finally {
      await pod.done();
    }
  });

  it('holds a Secret whose files the Deployment mounts and reads through <NAME>_FILE, Redis among them', () => {
    expect(kind('Secret')).toMatch(/^ {2}redis-url: redis:\/\//m);
    const deployment = kind('Deployment');
    expect(deployment).toContain('secretName: herald');
    expect(deployment).toContain('{ name: REDIS_URL_FILE, value: /run/secrets/herald/redis-url }');
  });

  it('runs two non-root replicas, ready on /readyz and live on /healthz, health on every interface', () => {
    const deployment = kind('Deployment');
    expect(deployment).toMatch(/^ {2}replicas: 2$/m);
    expect(deployment).toMatch(/readinessProbe:\n\s+httpGet: \{ path: \/readyz, port: http \}/);
    expect(deployment).toMatch(/livenessProbe:\n\s+httpGet: \{ path: \/healthz, port: http \}/);
    expect(deployment).toContain('{ name: HEALTH_HOST, value: 0.0.0.0 }');
    expect(deployment).toContain('runAsNonRoot: true');
  });

  it('keeps /metrics on its own port, which the Service does not publish', () => {
    expect(kind('Deployment')).toContain("{ name: METRICS_PORT, value: '9464' }");
    expect(kind('Service')).not.toContain('metrics');
  });
});

describe('deploy/herald.service', () => {
  it('runs start.sh as an unprivileged user, the store in its state directory', () => {
    expect(systemd).toMatch(/^ExecStart=\/opt\/herald\/deploy\/start\.sh$/m);
    expect(systemd).toMatch(/^User=herald$/m);
    expect(systemd).toMatch(/^StateDirectory=herald$/m);
    expect(systemd).toMatch(/^Environment=STORE_URL=\/var\/lib\/herald\/herald\.sqlite$/m);
  });
});

describe('.ci/run', () => {
  it('starts Redis only where REDIS_URL names none and none answers, and stops the one it started on exit', async () => {
    const ci = await read('.ci/run');
    expect(ci).toMatch(/if \[ -z "\$\{REDIS_URL:-\}" \] && ! \(exec 3<>\/dev\/tcp\/127\.0\.0\.1\/6379\)/);
    expect(ci).toMatch(/redis-server --daemonize yes .*--pidfile "\$pidfile"/);
    expect(ci).toMatch(
      /trap 'kill "\$\(cat "\$pidfile" 2>\/dev\/null\)" 2>\/dev\/null; rm -f "\$pidfile"' EXIT/,
    );
  });
});

describe('deploy/kubernetes/redis.yaml', () => {
  it('keeps Redis on a persistent volume, append-only, refusing to evict', async () => {
    const redis = await read('deploy/kubernetes/redis.yaml');
    expect(redis).toMatch(/^kind: StatefulSet$/m);
    expect(redis).toMatch(/volumeClaimTemplates:/);
    expect(redis).toMatch(/- \{ name: data, mountPath: \/data \}/);
    expect(redis).toContain("'--appendonly', 'yes'");
    expect(redis).toContain("'--maxmemory-policy', 'noeviction'");
  });
});
