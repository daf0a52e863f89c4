// /schedule add's typed text read as the dispatcher and its handler read it: the shared grammar
// (the command line from its first word starting with "/", as typed), then the schedule's own
// options typed after that line taken out of it.
import { takeTrailingOptions } from '../../commands/schedule-line.ts';
import { createScheduleCommands } from '../../commands/schedule.ts';
import { parseArgs } from '../../src/core/args.ts';
import type { ScheduleService } from '../../src/schedule/service.ts';

const add = createScheduleCommands({ service: {} as ScheduleService, users: [], roles: [] }).find(
  (c) => c.name === 'schedule add',
)!;

/** The raw options of `/schedule add <text>`, where the line's command has `commandOptions`. */
export function readAddText(text: string, commandOptions: readonly string[] = []): Record<string, unknown> {
  return takeTrailingOptions(parseArgs(add, text), commandOptions);
}
