// The command registry: an explicit list, in the order /help shows it. To add a command, add its
// file in commands/ and one line below; main.ts hands the list to the dispatcher and adapters.
import type { Command } from '../src/core/command.ts';
import type { CommandAccess, CommandLimits } from '../src/domain/command-access.ts';
import { createEmailSendCommand } from './email-send.ts';
import { createEmailStatusCommand } from './email-status.ts';
import { forecast } from './forecast.ts';
import { geocode } from './geocode.ts';
import { createHelpCommand } from './help.ts';
import { createHostCommand } from './host.ts';
import { createJobsCommand } from './jobs.ts';
import { createReadAloudCommand } from './read-aloud.ts';
import { report } from './report.ts';
import { createScheduleCommands, type ScheduleCommandOptions } from './schedule.ts';
import { createSayCommand, type SayCommandOptions } from './say.ts';
import { createSettingsCommand, type SettingsCommandOptions } from './settings.ts';
import { withSpeakOption } from './speak-option.ts';
import { voices } from './voices.ts';
import { weather } from './weather.ts';

/** What the commands take from the configuration (src/config/index.ts). */
export interface CommandSettings {
  access: CommandAccess;
  limits: CommandLimits;
  speechModelId: string;
  jobsCountry: string;
  /** Spends /say characters from the invoker's daily budget (src/user-limits.ts); absent: no budget. */
  chargeSay?: SayCommandOptions['charge'];
  refundSay?: SayCommandOptions['refund'];
  /** /schedule's service and who may manage schedules; absent: no /schedule. */
  schedules?: ScheduleCommandOptions;
  /** /settings: the kept preferences and who may set a channel's; absent: no /settings. */
  preferences?: SettingsCommandOptions;
}

export function buildCommands(settings: CommandSettings): Command[] {
  const { access } = settings;
  const email = { users: access.emailUsers, roles: access.emailRoles, domains: access.emailDomains };
  // The reading commands take `speak:yes` (commands/speak-option.ts), charged to the /say budget.
  const speakable = <I extends object>(command: Command<I>) =>
    withSpeakOption(command, {
      ...(settings.chargeSay ? { charge: settings.chargeSay } : {}),
      ...(settings.refundSay ? { refund: settings.refundSay } : {}),
    });
  // /say and Read aloud speak through one path, one limit and one budget.
  const say: SayCommandOptions = {
    modelId: settings.speechModelId,
    ...(settings.chargeSay ? { charge: settings.chargeSay } : {}),
    ...(settings.refundSay ? { refund: settings.refundSay } : {}),
  };
  const commands: Command[] = [
    speakable(weather),
    speakable(forecast),
    geocode,
    speakable(createHostCommand({ users: access.hostUsers, roles: access.hostRoles })),
    speakable(createJobsCommand({ defaultCountry: settings.jobsCountry })),
    createSayCommand(say),
    createReadAloudCommand(say),
    voices,
    createEmailSendCommand(email),
    createEmailStatusCommand(email),
    speakable(report),
    ...(settings.schedules
      ? createScheduleCommands({ ...settings.schedules, commands: () => commands })
      : []),
    ...(settings.preferences ? [createSettingsCommand(settings.preferences)] : []),
  ];
  commands.push(createHelpCommand(() => commands, { perUserPerMinute: settings.limits.perUserPerMinute }));
  return commands;
}
