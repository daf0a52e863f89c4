// Every area's messages, one i18next namespace each (src/i18n/define.ts says how one is written).
import { access } from './access.ts';
import { commands } from './commands.ts';
import { common } from './common.ts';
import { discordNames } from './discord-names.ts';
import { errors } from './errors.ts';
import { email } from './email.ts';
import { forms } from './forms.ts';
import { geocode } from './geocode.ts';
import { help } from './help.ts';
import { home } from './home.ts';
import { host } from './host.ts';
import { input } from './input.ts';
import { jobs } from './jobs.ts';
import { report } from './report.ts';
import { schedule } from './schedule.ts';
import { scheduleHistory } from './schedule-history.ts';
import { scheduleList } from './schedule-list.ts';
import { scheduleRefusals } from './schedule-refusals.ts';
import { settings } from './settings.ts';
import { speech } from './speech.ts';
import { weather } from './weather.ts';

export const CATALOGUE = {
  access,
  commands,
  common,
  discordNames,
  errors,
  email,
  forms,
  geocode,
  help,
  home,
  host,
  input,
  jobs,
  report,
  schedule,
  scheduleHistory,
  scheduleList,
  scheduleRefusals,
  settings,
  speech,
  weather,
};

/** The English messages of each area: the shape every key is typed from. */
export type Catalogue = { [N in keyof typeof CATALOGUE]: (typeof CATALOGUE)[N]['en-GB'] };
