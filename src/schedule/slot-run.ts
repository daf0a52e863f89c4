// One claimed slot: the job runs under a time limit (a built-in, or a chat schedule's command line
// as its creator or a manual asker), one store step marks the slot posted with its posts in the
// outbox leased to this process, which delivers them. The only place a job's run is caught and logged.
import { raceAbort } from '../abort.ts';
import type { Actor } from '../core/actor.ts';
import type { Reply } from '../core/reply.ts';
import { refusal, RunFailedError, ServiceError } from '../errors.ts';
import type { OutboxEntry, PostOptions, Store } from '../store/store.ts';
import type { Deliverer } from './delivery.ts';
import { toOutboxPayload, type EntryOutcome, type EntryResult } from './delivery-options.ts';
import type { Delivery, Job, JobContext, JobSlot } from './job.ts';
import type { Command } from '../core/command.ts';
import type { CheckedLine, RunOptions } from '../core/dispatch-contract.ts';
import type { WebhookMessage } from '../services/webhook/client.ts';
import type { SimulatedPolicy } from './simulated.ts';
import { landsKey, scheduleJobName, skipKey, type ScheduleRecord, type ScheduleSkip } from './schedules.ts';
import { decideSimulated, withFooter } from './simulated.ts';
import { applyWatch, watchMemoryKey } from './watch.ts';
import { holidayOn } from '../holidays.ts';

export interface SlotOutcome {
  job: string;
  slotId: string;
  status: 'posted' | 'skipped' | 'failed';
  reason?: 'already-posted' | 'held' | 'running' | 'claim-lost';
  /** What became of each post, and the post itself. */
  deliveries: (EntryResult & { delivery: Delivery })[];
  error?: unknown;
  /** Why the slot posted nothing because it is skipped (skips.ts). */
  skipped?: string;
  /** How long the run took, delivery included (absent for a skipped slot). */
  durationMs?: number;
}

/** What a claimed slot's run needs: what its job is handed, and the engine's parts. */
export interface SlotDeps extends Pick<JobContext, 'services' | 'store' | 'log' | 'now'> {
  /** The claim's owner; only it may mark the slot posted. */
  owner: string;
  jobTimeoutMs: number;
  deliverer: Deliverer;
  /** Fires at shutdown: the run is aborted and delivery waits stop. */
  signal: AbortSignal;
  /** Every finished run, and every missed slot (`missed`), for metrics. */
  onRun?: (e: { job: string; outcome: SlotOutcome['status'] | 'missed'; durationMs: number }) => void;
}

/** Runs a command line as its creator typed it (the dispatcher's `run`). */
export interface CommandLineRunner {
  run(line: string, actor: Actor, signal: AbortSignal, opts?: RunOptions): Promise<Reply>;
  /** Reads a line without running it; `accept` sees its command (the dispatcher's `check`). */
  check?(line: string, actor: Actor, accept?: (command: Command) => void): Promise<CheckedLine>;
}

/** What a chat schedule's run needs of the runner's settings. */
export interface ChatSettings {
  commands?: () => CommandLineRunner;
  /** A reply as the post for a destination, rendered for its platform (src/destinations.ts). */
  toMessage?: (reply: Reply, destination: string) => WebhookMessage;
  /** Refuses, or marks with a footer, a chat schedule's post of simulated data (simulated.ts). */
  simulated?: SimulatedPolicy;
}

/**
 * What a claimed slot runs: a built-in's job, or a chat schedule's line (chatWork), whose run leaves
 * a watch's new `memory` (saved with the slot's last post, or its "posted" mark) and why the slot
 * was `skipped`.
 */
type SlotWork = Pick<Job, 'name' | 'run'> & { memory?: PostOptions['memory']; skipped?: string };

/**
 * A chat schedule's slot, from the record and the watch memory (`before`) the claim read; `asker`:
 * a manual slot's.
 */
export function chatWork(
  settings: ChatSettings,
  record: ScheduleRecord,
  before: string | undefined,
  asker: Actor | undefined,
): SlotWork {
  const work: SlotWork = {
    name: scheduleJobName(record.id),
    async run(ctx) {
      const { commands, toMessage, simulated } = settings;
      if (!commands || !toMessage) throw new Error('chat schedules are not set up in this process');
      // Decided by the claim's holder, so the skip is recorded once, as any slot's run is.
      if (ctx.slot.reason !== 'manual')
        work.skipped = await skipReason(record, ctx.slot.scheduledAt, () => readSkip(ctx.store, record.id));
      const { skipped } = work;
      if (skipped)
        return ctx.log.info({ scheduleId: record.id, slotId: ctx.slot.id, skipped }, 'schedule.skipped');
      const run = { ...record, actor: asker ?? record.creator, schedule: record };
      const watch = (answer: Reply) => {
        const watched = applyWatch(answer, before, record.alert);
        work.memory = { key: watchMemoryKey(record.id), value: watched.memory };
        return watched.reply;
      };
      const reply = await runPost(
        commands(),
        simulated,
        ctx.signal,
        record.onlyNew ? { ...run, watch } : run,
      );
      if (reply)
        ctx.deliver({
          kind: 'webhook',
          destination: record.destination,
          message: toMessage(reply, record.destination),
          ...(record.lands
            ? { lands: { how: record.lands, key: landsKey(record.id), title: record.command } }
            : {}),
        });
    },
  };
  return work;
}

/** The run `/schedule skip` set aside, if any. */
export async function readSkip(store: Store, id: string): Promise<ScheduleSkip | undefined> {
  const raw = await store.getValue(skipKey(id));
  return raw === undefined ? undefined : (JSON.parse(raw) as ScheduleSkip);
}

/**
 * Why the slot at `at` is skipped (a public holiday, /schedule skip), as its history says it;
 * undefined when it runs. `skip` is read only for a slot that is no holiday.
 */
export async function skipReason(
  record: Pick<ScheduleRecord, 'holidays' | 'timezone'>,
  at: Date,
  skip: () => Promise<ScheduleSkip | undefined>,
): Promise<string | undefined> {
  const holiday = record.holidays && (await holidayOn(record.holidays, at, record.timezone));
  if (holiday) return `public holiday: ${holiday}`;
  const skipped = await skip();
  return skipped?.slotId === at.toISOString() ? `/schedule skip by ${skipped.by}` : undefined;
}

/**
 * The post a run of a schedule's line makes, for its slot and its preview alike: refused when it
 * would post simulated data to a real destination, failed with the command's own sentence when the
 * command says its answer is none (Reply.outcome), then a watch's post of it and the simulated footer.
 */
export async function runPost(
  runner: CommandLineRunner,
  simulated: SimulatedPolicy | undefined,
  signal: AbortSignal,
  run: Pick<ScheduleRecord, 'command' | 'destination' | 'ping'> & {
    actor: Actor;
    /** A watch's post of a reply; undefined when it found nothing new. */
    watch?: (reply: Reply) => Reply | undefined;
    /** The schedule it runs for, whose settings come first (/settings); absent in a preview. */
    schedule?: ScheduleRecord;
  },
): Promise<Reply | undefined> {
  // Every service the run uses, its options' included (speak:yes's speech).
  const needs = simulated && runner.check ? (await runner.check(run.command, run.actor)).services : [];
  const decision = simulated
    ? decideSimulated(needs, simulated.plan, run.destination, simulated.allow)
    : ({ kind: 'ok' } as const);
  if (decision.kind === 'refuse') throw refusal(decision.said);
  const answer = await runner.run(run.command, run.actor, signal, {
    watch: run.watch !== undefined,
    ...(run.schedule ? { schedule: run.schedule } : {}),
  });
  if (answer.outcome !== undefined) throw new RunFailedError(answer.text);
  const watched = run.watch ? run.watch(answer) : answer;
  const reply = watched && run.ping ? { ...watched, mentions: run.ping } : watched;
  return reply && decision.kind === 'footer' ? withFooter(reply, decision.footer) : reply;
}

/** Runs a claimed slot under its time limit; a watch's memory rides on its last post (or on the mark). */
export async function runClaimedSlot(deps: SlotDeps, work: SlotWork, slot: JobSlot): Promise<SlotOutcome> {
  const { store, log, owner } = deps;
  const { name } = work;
  const slotId = slot.id;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  log.info({ job: name, slotId, reason: slot.reason }, 'job.started');
  const deliveries: Delivery[] = [];
  const signal = AbortSignal.any([deps.signal, AbortSignal.timeout(deps.jobTimeoutMs)]);
  const late = () => new Error(`${name} did not finish within ${deps.jobTimeoutMs} ms`);
  try {
    // Stopping already: the job does not start.
    if (signal.aborted) throw late();
    const running = work.run({
      services: deps.services,
      store,
      log,
      now: deps.now,
      signal,
      slot,
      deliver: (d) => void deliveries.push(d),
    });
    await raceAbort(running, signal, late);
  } catch (err) {
    await store.markFailed(name, slotId, owner, err instanceof Error ? err.message : String(err));
    const durationMs = elapsed();
    log[err instanceof ServiceError || err instanceof RunFailedError ? 'warn' : 'error'](
      { job: name, slotId, durationMs, err },
      'job.failed',
    );
    deps.onRun?.({ job: name, outcome: 'failed', durationMs });
    return { job: name, slotId, status: 'failed', deliveries: [], error: err, durationMs };
  }
  const { memory } = work;
  const entries = deliveries.map((d, i) => ({
    id: `${name}|${slotId}|${i}:${d.kind}`,
    job: name,
    slotId,
    kind: d.kind,
    payload: toOutboxPayload(d),
    ...(memory && i === deliveries.length - 1 ? { memory } : {}),
  }));
  const leaseMs = deps.deliverer.leaseMs;
  const memoryOnMark = memory && entries.length === 0 ? { memory } : {};
  if (!(await store.markPosted(name, slotId, owner, entries, { leaseMs, ...memoryOnMark }))) {
    // Our lease ran out and another replica took the slot over: its run is the one that counts.
    log.warn({ job: name, slotId, durationMs: elapsed() }, 'job.claim_lost');
    return { job: name, slotId, status: 'skipped', reason: 'claim-lost', deliveries: [] };
  }
  // The posts are leased to this process, and marked in flight, by the step that recorded them.
  const t = deps.now().getTime();
  const held: OutboxEntry[] = entries.map((e) => ({
    ...e,
    status: 'pending',
    attempts: 1,
    nextAttemptAt: t + leaseMs,
    createdAt: t,
    updatedAt: t,
  }));
  const result = await deps.deliverer.deliverHeld(held, { signal: deps.signal, markedAt: t });
  const delivered = result.map((r, i) => ({ ...r, delivery: deliveries[i]! }));
  const count = (x: EntryOutcome) => delivered.filter((d) => d.outcome === x).length;
  const durationMs = elapsed();
  const counts = { delivered: count('delivered'), pending: count('pending'), givenUp: count('given_up') };
  log.info({ job: name, slotId, durationMs, ...counts }, 'job.finished');
  const why = work.skipped;
  deps.onRun?.({ job: name, outcome: why ? 'skipped' : 'posted', durationMs });
  const outcome: SlotOutcome = { job: name, slotId, status: 'posted', deliveries: delivered, durationMs };
  return why ? { ...outcome, skipped: why } : outcome;
}
