// /schedule add|list|remove|pause|resume|run: scheduled reports from chat (README, "Scheduled
// reports"). Anyone may list the schedules they may see where they type (schedule/visibility.ts);
// managing needs SCHEDULE_ALLOWED_USERS or _ROLES (else the operator), and another user's schedule
// needs SCHEDULE_ADMIN_USERS or _ROLES (schedule/service.ts).
// The work is in src/schedule/service.ts; this file defines the commands and their replies.
import { z } from 'zod';
import { tokenize } from '../src/core/args.ts';
import { defineCommand, type AccessCheck, type Command } from '../src/core/command.ts';
import { loggedText } from '../src/domain/text.ts';
import type { ScheduleService } from '../src/schedule/service.ts';
import { RunFailedError, UserError } from '../src/errors.ts';
import { allowList } from './access.ts';
import {
  addedReply,
  historyReply,
  listReply,
  pausedReply,
  previewAction,
  previewReply,
  ranReply,
  removedReply,
} from './schedule-format.ts';

export interface ScheduleCommandOptions {
  service: ScheduleService;
  users: readonly string[];
  roles: readonly string[];
}

const ADD_KEYS = ['when', 'command', 'to', 'tz', 'only', 'alert', 'preview'] as const;
/** `preview:yes` typed after the command line is /schedule's own (no command has a preview option). */
const TRAILING_PREVIEW_RE = /\s+preview:(yes|no)\s*$/i;
const QUOTES = new Set(['"', "'", '“', '‘']);

/**
 * The short form `"<when>" /weather Oslo units:imperial` (`to:`/`tz:` may come first): everything
 * from the first word starting with "/" is the command line, verbatim. Undefined for the keyed form.
 */
export function readShortForm(text: string): Record<string, string> | undefined {
  if (/(^|\s)command:/i.test(text)) return undefined;
  let quote: string | undefined;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const isWordStart = i === 0 || /\s/.test(text[i - 1]!);
    if (quote !== undefined) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
    } else if (isWordStart && QUOTES.has(ch)) {
      quote = ch === '“' ? '”' : ch === '‘' ? '’' : ch;
    } else if (isWordStart && ch === '/') {
      start = i;
      break;
    }
  }
  if (start < 0) return undefined;
  let line = text.slice(start).trim();
  const trailing = TRAILING_PREVIEW_RE.exec(line);
  if (trailing) line = line.slice(0, trailing.index).trim();
  const out: Record<string, string> = { command: line };
  if (trailing) out.preview = trailing[1]!.toLowerCase();
  const words: string[] = [];
  for (const token of tokenize(text.slice(0, start))) {
    if (token.key === undefined) {
      words.push(token.value);
      continue;
    }
    const key = token.key.toLowerCase();
    if (!(ADD_KEYS as readonly string[]).includes(key) || key === 'command') {
      throw new UserError({
        code: 'invalid_input',
        message: `/schedule add has no option "${token.key}" before the command; its options are when, to, tz, only, alert and preview.`,
      });
    }
    if (Object.hasOwn(out, key))
      throw new UserError({ code: 'invalid_input', message: `The option ${key} is given twice.` });
    out[key] = token.value;
  }
  if (words.length > 0) {
    if (Object.hasOwn(out, 'when'))
      throw new UserError({ code: 'invalid_input', message: 'The option when is given twice.' });
    out.when = words.join(' ');
  }
  return out;
}

const ID = z.string().trim().min(1).max(64).describe('The schedule id, as /schedule list shows it');

const ADD_OPTIONS = z.object({
  when: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('When: "every weekday at 07:30", "every 2 hours" or a cron expression'),
  command: z.string().trim().min(1).max(1000).describe('The command line, e.g. /weather Oslo units:imperial'),
  to: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .optional()
    .describe('A configured destination (default: this channel on Discord and Slack, else default)'),
  tz: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .describe('IANA time zone, e.g. Europe/Berlin (default: SCHEDULE_TZ)'),
  only: z.enum(['new']).optional().describe('new: a watch, posting only what is new since its last post'),
  alert: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .optional()
    .describe('With only:new on /forecast: rain, snow, "below 0" or "above 30"'),
  preview: z
    .enum(['yes', 'no'])
    .optional()
    .describe('yes: run the command once now and show the post, without posting or adding it'),
});

/** /schedule add: the keyed or the short form, with destination and zone completion. */
function scheduleAdd(service: ScheduleService, manage: AccessCheck): Command {
  return defineCommand({
    name: 'schedule add',
    changesState: true,
    description: 'Post a command’s reply to a channel on a schedule',
    options: ADD_OPTIONS,
    positional: ['when', 'command'],
    needs: [],
    access: [manage],
    readText: readShortForm,
    // With no arguments on Discord and Slack: a form of the same options (src/core/form.ts).
    form: {
      title: 'New schedule',
      fields: [
        { option: 'when', label: 'When' },
        { option: 'command', label: 'Command' },
        { option: 'to', label: 'Destination (to)' },
        { option: 'tz', label: 'Time zone (tz)' },
      ],
      more: { label: 'Further options, as typed', hint: 'e.g. only:new alert:rain preview:yes' },
    },
    autocomplete: {
      to: (partial) => Promise.resolve(service.destinationChoices(partial)),
      tz: (partial) => Promise.resolve(service.zoneChoices(partial)),
    },
    examples: [
      '/schedule add "every weekday at 07:30" /weather Oslo units:imperial',
      '/schedule add when:"every monday at 09:00" command:"/jobs what:\\"rust developer\\" where:Berlin" to:ops tz:Europe/Berlin',
    ],
    async handler(input, ctx) {
      const { preview, ...typed } = input;
      // Without to:, a schedule typed in a Discord or Slack channel posts into that channel.
      const schedule = ctx.channel ? { ...typed, channel: ctx.channel } : typed;
      if (preview === 'yes') {
        const shown = await service.preview(schedule, ctx.actor, ctx.signal);
        // A command that fails now would fail at its slot: a failed command, told in the same sentence.
        if ('error' in shown.result) throw new RunFailedError(previewReply(shown).text);
        return previewReply(shown);
      }
      const { record, nextRuns } = await service.add(schedule, ctx.actor);
      // A typed cron is the user's text (a valid one runs to ~180 characters).
      const cron = loggedText(record.cron);
      ctx.log.info({ scheduleId: record.id, cron, timezone: record.timezone }, 'schedule.added');
      const added = addedReply(record, nextRuns);
      return { ...added, actions: [...(added.actions ?? []), previewAction(typed)] };
    },
  });
}

/** /schedule list and /schedule history: what anyone may read of the schedules they may see. */
function scheduleReading(service: ScheduleService): Command[] {
  return [
    defineCommand({
      name: 'schedule list',
      description: 'List the schedules, their next and last runs',
      // Only the reader sees it: its buttons (run, pause, remove) are theirs to press.
      ephemeral: true,
      options: z.object({
        page: z.number().int().min(1).max(1000).default(1).describe('Page of a long list, from 1'),
      }),
      needs: [],
      examples: ['/schedule list', '/schedule list page:2'],
      async handler(input, ctx) {
        return listReply(
          await service.list({ actor: ctx.actor, channel: ctx.channel }),
          service.settings.max,
          input.page,
        );
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
        return historyReply(record, runs);
      },
    }),
  ];
}

export function createScheduleCommands(opts: ScheduleCommandOptions): Command[] {
  const { service } = opts;
  const manage = allowList({
    users: opts.users,
    roles: opts.roles,
    action: 'manage schedules',
    usersVariable: 'SCHEDULE_ALLOWED_USERS',
    rolesVariable: 'SCHEDULE_ALLOWED_ROLES',
  });
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
    scheduleAdd(service, manage),
    ...scheduleReading(service),
    defineCommand({
      ...byId('schedule remove', 'Remove a schedule'),
      examples: ['/schedule remove k7p2mx'],
      async handler(input, ctx) {
        const record = await service.remove(input.id, ctx.actor, ctx.channel);
        ctx.log.info({ scheduleId: record.id }, 'schedule.removed');
        return removedReply(record);
      },
    }),
    defineCommand({
      ...byId('schedule pause', 'Pause a schedule until it is resumed'),
      async handler(input, ctx) {
        const { record, nextRun } = await service.setPaused(input.id, true, ctx.actor, ctx.channel);
        return pausedReply(record, nextRun);
      },
    }),
    defineCommand({
      ...byId('schedule resume', 'Resume a paused schedule'),
      async handler(input, ctx) {
        const { record, nextRun } = await service.setPaused(input.id, false, ctx.actor, ctx.channel);
        return pausedReply(record, nextRun);
      },
    }),
    defineCommand({
      ...byId('schedule run', 'Post a schedule now, outside its times'),
      examples: ['/schedule run k7p2mx'],
      async handler(input, ctx) {
        const { record, result } = await service.run(input.id, ctx.actor, ctx.channel);
        const reply = ranReply(record, result);
        // A failed run is a failed command (a piped console exits 1), told in the same sentence.
        if (result.outcome === 'failed') throw new RunFailedError(reply.text);
        return reply;
      },
    }),
  ];
}
