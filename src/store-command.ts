// `npm run store -- export | import`: moves what a store holds for good to another store, through a
// file (src/store-move/, docs/store-move.md). The store is the configured one (STORE_URL, REDIS_URL),
// or the one `--store` names. The export is the only thing written to stdout; every message goes to
// stderr, so `npm run --silent store -- export > herald-store.json` is the file alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readEnvironment } from './config/file.ts';
import { loadConfig, secretsOf, type Config } from './config/index.ts';
import { ConfigError } from './errors.ts';
import { formatNumber, plural } from './format.ts';
import { redactText, registerSecret } from './redact.ts';
import { parseStoreFile, serializeStoreFile, StoreMoveError } from './store-move/export-file.ts';
import { exportStore, importStore } from './store-move/move.ts';
import { describeStore, openStore, type Store } from './store/index.ts';

const USAGE = `Usage: npm run --silent store -- export [--out FILE] [--store WHERE]
       npm run store -- import [FILE] [--force] [--store WHERE]

  export   write the store's schedules (with their history), watch memories, preferences and
           destination pauses as JSON to stdout, or to FILE with --out
  import   read such a file (FILE, else stdin) into the store; importing it twice changes nothing.
           Refused while a herald is running on the store, unless --force
  --store  the store to use instead of the configured one: a SQLite file's path or a redis:// URL
  --help   print this text

npm prints its own banner on stdout unless run with --silent; import skips it in a file.
Exit codes: 0 done; 1 refused (a running herald, a newer or malformed file, the memory store) or
the store failed; 2 a usage or configuration error.
`;

class UsageError extends Error {}

interface Request {
  action: 'export' | 'import';
  out?: string;
  file?: string;
  store?: string;
  force: boolean;
}

function requestOf(args: string[]): Request | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        store: { type: 'string' },
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  const [action, file, ...rest] = positionals;
  if (action !== 'export' && action !== 'import') throw new UsageError('say export or import');
  if (rest.length > 0 || (action === 'export' && file !== undefined))
    throw new UsageError(`unexpected ${[file, ...rest].join(' ')}`);
  if (action === 'export' && values.force) throw new UsageError('--force is for import');
  if (action === 'import' && values.out !== undefined) throw new UsageError('--out is for export');
  return {
    action,
    force: values.force,
    ...(values.out === undefined ? {} : { out: values.out }),
    ...(file === undefined ? {} : { file }),
    ...(values.store === undefined ? {} : { store: values.store }),
  };
}

/** Where the store is: `--store`'s path or URL over the configuration's. */
function placeOf(config: Config, store: string | undefined) {
  if (store === undefined) return config;
  return { storeUrl: store, redisUrl: undefined, redisTlsVerify: config.redisTlsVerify };
}

async function readInput(file: string | undefined): Promise<string> {
  if (file !== undefined) return readFileSync(file, 'utf8');
  if (process.stdin.isTTY)
    throw new UsageError('give the file: npm run store -- import < herald-store.json (or its path)');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function runExport(store: Store, where: string, request: Request): Promise<void> {
  const { file, pendingPosts } = await exportStore(store);
  const text = serializeStoreFile(file);
  if (request.out === undefined) await new Promise((done) => process.stdout.write(text, done));
  else writeFileSync(request.out, text);
  const runs = file.schedules.reduce((n, s) => n + s.history.length, 0);
  const values = Object.keys(file.values).length;
  process.stderr.write(
    `Exported ${plural(file.schedules.length, 'schedule')} (${plural(runs, 'run')} of history) and ${plural(values, 'value')} from ${where}${request.out === undefined ? '' : ` to ${request.out}`}.\n`,
  );
  if (pendingPosts > 0)
    process.stderr.write(
      `${plural(pendingPosts, 'post')} still waiting in the outbox ${pendingPosts === 1 ? 'is' : 'are'} not in the file: start herald on this store until they are delivered, then export again.\n`,
    );
}

async function runImport(store: Store, where: string, request: Request): Promise<void> {
  const file = parseStoreFile(await readInput(request.file));
  const done = await importStore(store, file, { force: request.force });
  const existing =
    done.existing === 0
      ? ''
      : ` (${formatNumber(done.existing)} ${done.existing === 1 ? 'was' : 'were'} there already, left as they were)`;
  process.stdout.write(
    `Imported ${plural(done.schedules, 'schedule')}${existing}, ${plural(done.runs, 'run')} of history and ${plural(done.values, 'value')} into ${where}.\n`,
  );
}

async function main(args: string[]): Promise<number> {
  let request: Request | 'help';
  let config: Config;
  try {
    request = requestOf(args);
    if (request === 'help') {
      process.stdout.write(USAGE);
      return 0;
    }
    config = loadConfig(readEnvironment().env);
  } catch (err) {
    if (!(err instanceof UsageError || err instanceof ConfigError)) throw err;
    const hint = err instanceof UsageError ? ' (try --help)' : '';
    process.stderr.write(`herald store: ${err.message}${hint}\n`);
    return 2;
  }
  for (const secret of secretsOf(config)) registerSecret(secret);
  const place = placeOf(config, request.store);
  let store: Store | undefined;
  const where = describeStore(place);
  try {
    // Opening a SQLite path that holds nothing would make an empty store there and export it.
    if (request.action === 'export' && where.startsWith('sqlite ') && !existsSync(place.storeUrl))
      throw new StoreMoveError({ code: 'missing_store', message: `There is no store at ${place.storeUrl}.` });
    store = await openStore(place);
    await (request.action === 'export' ? runExport(store, where, request) : runImport(store, where, request));
    return 0;
  } catch (err) {
    process.stderr.write(`${redactText(err instanceof Error ? err.message : String(err))}\n`);
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await store?.close();
  }
}

process.exit(await main(process.argv.slice(2)));
