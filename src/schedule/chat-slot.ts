// One slot of a chat schedule (/schedule), as the engine runs it: the schedule read again after
// the claim, the simulated-data guard, the command line run with its creator's (or a manual
// asker's) identity, a watch's "only what is new" with one run at a time across replicas, the
// post handed to the outbox, and what the run and the outbox's later deliveries make of its record.
import type { Actor } from '../core/actor.ts';
import type { DrainResult } from './delivery.ts';
import { defineJob, type Job, type JobSlot } from './job.ts';
import type { Reply } from '../core/reply.ts';
import { UserError } from '../errors.ts';
import { decideSimulated, withFooter, type SimulatedDecision } from './simulated.ts';
import { scheduleJobName, type ScheduleRecord, type ScheduleRun } from './schedules.ts';
import { skippedOutcome } from './slot-claims.ts';
import type { SlotMemory, SlotOutcome } from './slot-run.ts';
import { goneOf, isDestinationFailure, recordChatRun, runRecord } from './run-history.ts';
import { applyWatch, watchMemoryKey } from './watch.ts';
import {
  claimAndRun,
  withRetry,
  type CommandLineRunner,
  type RunnerCore,
  type ScheduleRunnerOptions,
} from './runner-core.ts';

/**
 * What the outbox's later deliveries of chat schedules' posts make of their slots' records; a slot
 * with none yet (its replica died before its post was answered) gets its first here.
 */
export async function recordDrained(core: RunnerCore, drained: DrainResult): Promise<void> {
  for (const [entryId, outcome] of drained.outcomes) {
    const [job, slotId] = entryId.split('|');
    if (!job?.startsWith('schedule-') || slotId === undefined || outcome === 'pending') continue;
    const id = job.slice('schedule-'.length);
    const record = await core.settings.schedules.get(id);
    const runs = await core.settings.schedules.history(id);
    const earlier = runs.find((r) => r.slotId === slotId) ?? { slotId, at: 0, outcome: 'pending' as const };
    if (!record || earlier.outcome !== 'pending') continue;
    const receipt = drained.receipts?.get(entryId);
    const channelId = drained.channels?.get(entryId);
    const failure = drained.failures?.get(entryId);
    const { error: _error, nextRetryAt: _next, ...rest } = earlier;
    const run: ScheduleRun =
      outcome === 'delivered'
        ? {
            ...rest,
            outcome: 'posted',
            at: core.now().getTime(),
            ...(receipt ? { messageId: receipt } : {}),
            ...(channelId ? { channelId } : {}),
          }
        : {
            ...rest,
            outcome: 'failed',
            at: core.now().getTime(),
            error: `The destination refused the post: ${failure?.reason ?? 'see the log'}.`,
          };
    const deliveries = [{ id: entryId, kind: 'webhook' as const, outcome, ...(failure ? { failure } : {}) }];
    await recordChatRun(core.book, record, run, {
      gone: goneOf({ deliveries }),
      destinationFailed: isDestinationFailure({ deliveries }),
    });
  }
}

/** The simulated-data guard for a run of `record`, from the services its command needs now. */
async function simulatedDecision(
  settings: ScheduleRunnerOptions,
  commands: CommandLineRunner,
  record: ScheduleRecord,
  actor: Actor,
): Promise<SimulatedDecision> {
  if (!settings.simulated || !commands.check) return { kind: 'ok' };
  // Every service the run uses, its options' included (speak:yes's speech).
  const { services } = await commands.check(record.command, actor);
  return decideSimulated(services, settings.simulated.plan, record.destination, settings.simulated.allow);
}

/**
 * A chat schedule's slot as a job; `pending` receives the watch's memory to save with its post.
 * `asker`: who asked for a manual slot; the creator's rights serve the scheduled slots only.
 */
function jobFor(
  core: RunnerCore,
  id: string,
  pending: { memory?: SlotMemory },
  asker: Actor | undefined,
): Job {
  const { settings, store } = core;
  return defineJob({
    name: scheduleJobName(id),
    description: `schedule ${id}`,
    needs: [],
    async run(ctx) {
      const { commands, toMessage } = settings;
      if (!commands || !toMessage) throw new Error('chat schedules are not set up in this process');
      // Read again after the claim: removed or paused anywhere means it does not post.
      const current = await settings.schedules.get(id);
      if (!current) throw new Error('the schedule was removed');
      if (current.paused && ctx.slot.reason !== 'manual') throw new Error('the schedule is paused');
      const watch = current.onlyNew === true;
      const actor = asker ?? current.creator;
      const decision = await simulatedDecision(settings, commands(), current, actor);
      if (decision.kind === 'refuse')
        throw new UserError({ code: 'invalid_input', message: decision.message });
      let reply: Reply | undefined = await commands().run(current.command, actor, ctx.signal, { watch });
      if (watch) {
        const memory = await store.getValue(watchMemoryKey(id));
        const watched = applyWatch(reply, memory, current.alert);
        reply = watched.reply;
        pending.memory = { key: watchMemoryKey(id), value: watched.memory };
      }
      if (reply && decision.kind === 'footer') reply = withFooter(reply, decision.footer);
      if (reply)
        ctx.deliver({
          kind: 'webhook',
          destination: current.destination,
          message: toMessage(reply, current.destination),
        });
    },
  });
}

/** The claim a watch holds while one of its slots runs: one run at a time across replicas. */
const WATCH_RUN_SLOT = 'watch-run';

/**
 * Runs `work` while holding the watch's run claim (in the store for other replicas, in `local` for
 * this process, whose own claims the store would grant again); skipped when another run holds it.
 * Released when done, so that the next run reads the memory this one saved with its post.
 */
async function asOnlyRun(
  core: RunnerCore,
  name: string,
  slot: JobSlot,
  local: Set<string>,
  work: () => Promise<SlotOutcome>,
): Promise<SlotOutcome> {
  if (local.has(name)) return skippedOutcome(name, slot.id, 'running');
  local.add(name);
  try {
    const claim = await core.store.claimSlot(name, WATCH_RUN_SLOT, core.owner, core.settings.leaseMs);
    if (claim.status !== 'claimed') return skippedOutcome(name, slot.id, 'running');
    try {
      return await work();
    } finally {
      await core.store.markFailed(name, WATCH_RUN_SLOT, core.owner, 'released');
    }
  } finally {
    local.delete(name);
  }
}

export async function executeChat(
  core: RunnerCore,
  record: ScheduleRecord,
  slot: JobSlot,
  watchesRunning: Set<string>,
  asker?: Actor,
): Promise<SlotOutcome> {
  const pending: { memory?: SlotMemory } = {};
  const job = jobFor(core, record.id, pending, asker);
  const work = () => claimAndRun(core, job, slot, () => pending.memory);
  const outcome = record.onlyNew ? await asOnlyRun(core, job.name, slot, watchesRunning, work) : await work();
  if (outcome.status === 'skipped') return outcome;
  const run = await withRetry(core, job.name, runRecord(outcome, core.now().getTime()));
  const isNoChange =
    record.onlyNew === true && outcome.status === 'posted' && outcome.deliveries.length === 0;
  // A manual run's asker reads what happened in the reply: the creator asking is told there.
  const isCreatorAsking =
    asker !== undefined && asker.platform === record.creator.platform && asker.id === record.creator.id;
  await recordChatRun(core.book, record, isNoChange ? { ...run, outcome: 'no-change' } : run, {
    gone: goneOf(outcome),
    destinationFailed: isDestinationFailure(outcome),
    toldAlready: isCreatorAsking,
  });
  return outcome;
}
