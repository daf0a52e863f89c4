// /schedule add|list|remove|pause|resume|skip|unskip|run: scheduled reports from chat (README, "Scheduled
// reports"). Anyone may list the schedules they may see where they type (schedule/visibility.ts);
// managing needs SCHEDULE_ALLOWED_USERS or _ROLES (else the operator), and another user's schedule
// needs SCHEDULE_ADMIN_USERS or _ROLES (schedule/service.ts).
// The work is in src/schedule/service.ts; this file defines the commands and their replies.
import { z } from 'zod';
import { readInput } from '../src/core/args.ts';
import { defineCommand, type AccessCheck, type Command } from '../src/core/command.ts';
import { loggedText } from '../src/domain/text.ts';
import type { ScheduleService } from '../src/schedule/service.ts';
import { isScheduleAdmin } from '../src/schedule/visibility.ts';
import { parseMentions } from '../src/domain/mentions.ts';
import { RunFailedError } from '../src/errors.ts';
import { allowList } from './access.ts';
import { ADD_OPTIONS, takeTrailingOptions } from './schedule-line.ts';
import {
  addedReply,
  auditReply,
  historyReply,
  pausedReply,
  previewAction,
  skipReply,
  previewReply,
  ranReply,
  removedReply,
} from './schedule-format.ts';
import { homeReply } from './schedule-home.ts';
import { listReply } from './schedule-list-format.ts';

export interface ScheduleCommandOptions {
  service: ScheduleService;
  users: readonly string[];
  roles: readonly string[];
  /** Every command, late-bound: add asks which options a scheduled command has. */
  commands?: () => readonly Command[];
}

/** The option names of a command line's command (`/email status …` is "email status"), if any. */
function optionNamesOf(commands: readonly Command[], line: string): readonly string[] {
  const words = line.trim().replace(/^\//, '').toLowerCase().split(/\s+/);
  const command =
    commands.find((c) => c.name === words.slice(0, 2).join(' ')) ?? commands.find((c) => c.name === words[0]);
  return command ? Object.keys(command.options.shape) : [];
}

const ID = z.string().trim().min(1).max(64).describe('The schedule id, as /schedule list shows it');

/** /schedule add: the keyed or the short form, with destination and zone completion. */
function scheduleAdd(opts: ScheduleCommandOptions, manage: AccessCheck): Command {
  const { service } = opts;
  const add: Command = defineCommand({
    name: 'schedule add',
    changesState: true,
    description: 'Post a command’s reply to a channel on a schedule',
    options: ADD_OPTIONS,
    positional: ['when', 'command'],
    needs: [],
    access: [manage],
    // With no arguments on Discord and Slack: a form of the same options (src/core/form.ts).
    form: {
      title: 'schedule:form.title',
      fields: [
        { option: 'when', label: 'schedule:form.when', hint: 'schedule:form.hints.when' },
        { option: 'command', label: 'schedule:form.command', hint: 'schedule:form.hints.command' },
        { option: 'to', label: 'schedule:form.to', hint: 'schedule:form.hints.to' },
        { option: 'tz', label: 'schedule:form.tz', hint: 'schedule:form.hints.tz' },
      ],
      more: { label: 'schedule:form.more', hint: 'schedule:form.hint' },
    },
    autocomplete: {
      to: (partial) => Promise.resolve(service.destinationChoices(partial)),
      tz: (partial) => Promise.resolve(service.zoneChoices(partial)),
    },
    examples: [
      '/schedule add "every weekday at 07:30" /weather Oslo units:imperial',
      '/schedule add when:"every monday at 09:00" command:"/jobs what:\\"rust developer\\" where:Berlin" to:ops tz:Europe/Berlin',
      '/schedule add "every weekday at 07:30" skip:holidays:de-by /weather Munich',
    ],
    async handler(given, ctx) {
      // The schedule's options typed after the command line, on every surface, checked as typed.
      const commandOptions = optionNamesOf(opts.commands?.() ?? [], given.command);
      const input = readInput(add, takeTrailingOptions(given, commandOptions)) as typeof given;
      const { preview, ping, ...typed } = input;
      // Without to:, a schedule typed in a Discord or Slack channel posts into that channel; without
      // tz:, it fires in its creator's zone, else the channel's, else SCHEDULE_TZ (/settings).
      const mentions = { ping: ping === undefined ? undefined : parseMentions(ping) };
      const zoned = { ...typed, ...mentions, zone: ctx.preferences.timezone };
      const schedule = ctx.channel ? { ...zoned, channel: ctx.channel } : zoned;
      if (preview === 'yes') {
        const shown = await service.preview(schedule, ctx.actor, ctx.signal);
        // A command that fails now would fail at its slot: a failed command, told in the same sentence.
        const reply = previewReply(shown, ctx.preferences.timezone, ctx);
        if ('error' in shown.result) throw new RunFailedError(reply.text);
        return reply;
      }
      const { record, nextRuns } = await service.add(schedule, ctx.actor, ctx.surface);
      // A typed cron is the user's text (a valid one runs to ~180 characters).
      const cron = loggedText(record.cron);
      ctx.log.info({ scheduleId: record.id, cron, timezone: record.timezone }, 'schedule.added');
      const added = addedReply(record, nextRuns, ctx.preferences.timezone, ctx);
      return { ...added, actions: [...(added.actions ?? []), previewAction({ ...typed, ping }, ctx)] };
    },
  });
  return add;
}

/** /schedule list and /schedule history: what anyone may read of the schedules they may see. */
function scheduleReading(service: ScheduleService): Command[] {
  return [
    defineCommand({
      name: 'schedule list',
      description: 'List the schedules, their next and last runs',
      // Only the reader sees it: its buttons (run, pause, remove) are theirs to press.
      ephemeral: true,
      // Slack's Home tab: the reader's schedules, with the same buttons (schedule-home.ts).
      drawsHome: true,
      options: z.object({
        page: z.number().int().min(1).max(1000).default(1).describe('Page of a long list, from 1'),
      }),
      needs: [],
      examples: ['/schedule list', '/schedule list page:2'],
      async handler(input, ctx) {
        const listing = await service.list({ actor: ctx.actor, channel: ctx.channel });
        const zone = ctx.preferences.timezone;
        if (ctx.surface === 'home') {
          const isAdmin = isScheduleAdmin(service.settings, ctx.actor);
          return homeReply(listing, { actor: ctx.actor, isAdmin }, zone, ctx);
        }
        return listReply(listing, service.settings.max, input.page, zone, ctx);
      },
    }),
    defineCommand({
      name: 'schedule history',
      description: 'The last runs of a schedule: when, outcome, duration and the posted message',
      options: z.object({ id: ID }),
      positional: ['id'],
      needs: [],
      examples: ['/schedule history k7p2mx'],
      async handler(input, ctx) {
        const viewer = { actor: ctx.actor, channel: ctx.channel };
        const { record, runs } = await service.history(input.id, viewer, ctx.signal);
        return historyReply(record, runs, ctx.preferences.timezone, ctx);
      },
    }),
  ];
}

/** /schedule skip and unskip: the next run set aside, or that taken back (src/schedule/skips.ts). */
function scheduleSkips(service: ScheduleService, manage: AccessCheck): Command[] {
  return ([true, false] as const).map((isSkip) =>
    defineCommand({
      name: isSkip ? 'schedule skip' : 'schedule unskip',
      description: isSkip ? 'Skip the next run of a schedule' : 'Take back a /schedule skip: that run runs',
      options: z.object({ id: ID }),
      positional: ['id'],
      needs: [],
      access: [manage],
      changesState: true,
      examples: [isSkip ? '/schedule skip k7p2mx' : '/schedule unskip k7p2mx'],
      async handler(input, ctx) {
        const skipped = await service.setSkip(input.id, isSkip, ctx.actor, ctx.channel, ctx.surface);
        return skipReply(skipped, isSkip, ctx.preferences.timezone, ctx);
      },
    }),
  );
}

/** Who may manage schedules: SCHEDULE_ALLOWED_USERS or _ROLES, else the operator. */
const manageAccess = (opts: ScheduleCommandOptions): AccessCheck =>
  allowList({
    users: opts.users,
    roles: opts.roles,
    action: 'schedules',
    usersVariable: 'SCHEDULE_ALLOWED_USERS',
    rolesVariable: 'SCHEDULE_ALLOWED_ROLES',
  });

export function createScheduleCommands(opts: ScheduleCommandOptions): Command[] {
  const { service } = opts;
  const manage = manageAccess(opts);
  const byId = (name: string, description: string) => ({
    name,
    description,
    options: z.object({ id: ID }),
    positional: ['id'] as const,
    needs: [],
    access: [manage],
    changesState: true,
  });
  return [
    scheduleAdd(opts, manage),
    ...scheduleReading(service),
    defineCommand({
      ...byId('schedule remove', 'Remove a schedule'),
      examples: ['/schedule remove k7p2mx'],
      async handler(input, ctx) {
        const record = await service.remove(input.id, ctx.actor, ctx.channel, ctx.surface);
        ctx.log.info({ scheduleId: record.id }, 'schedule.removed');
        return removedReply(record, ctx);
      },
    }),
    defineCommand({
      ...byId('schedule pause', 'Pause a schedule until it is resumed'),
      async handler(input, ctx) {
        const set = await service.setPaused(input.id, true, ctx.actor, ctx.channel, ctx.surface);
        return pausedReply(set.record, set.nextRun, ctx.preferences.timezone, ctx);
      },
    }),
    defineCommand({
      ...byId('schedule resume', 'Resume a paused schedule'),
      async handler(input, ctx) {
        const set = await service.setPaused(input.id, false, ctx.actor, ctx.channel, ctx.surface);
        return pausedReply(set.record, set.nextRun, ctx.preferences.timezone, ctx);
      },
    }),
    ...scheduleSkips(service, manage),
    defineCommand({
      ...byId('schedule run', 'Post a schedule now, outside its times'),
      examples: ['/schedule run k7p2mx'],
      async handler(input, ctx) {
        const { record, result } = await service.run(input.id, ctx.actor, ctx.channel);
        const reply = ranReply(record, result, ctx);
        // A failed run is a failed command (a piped console exits 1), told in the same sentence.
        if (result.outcome === 'failed') throw new RunFailedError(reply.text);
        return reply;
      },
    }),
    defineCommand({
      name: 'schedule audit',
      description: 'Who added, paused, resumed or removed schedules, and how (schedule admins)',
      options: z.object({ id: ID.optional() }),
      positional: ['id'],
      needs: [],
      ephemeral: true,
      examples: ['/schedule audit', '/schedule audit k7p2mx'],
      async handler(input, ctx) {
        const viewer = { actor: ctx.actor, channel: ctx.channel };
        const entries = await service.audit(viewer, input.id);
        return auditReply(entries, input.id, ctx.preferences.timezone, ctx);
      },
    }),
  ];
}
