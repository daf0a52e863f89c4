// Every area's messages, one i18next namespace each (src/i18n/define.ts says how one is written).
import { access } from './access.ts';
import { commands } from './commands.ts';
import { common } from './common.ts';
import { email } from './email.ts';
import { errors } from './errors.ts';
import { forms } from './forms.ts';
import { help } from './help.ts';
import { host } from './host.ts';
import { jobs } from './jobs.ts';
import { schedule } from './schedule.ts';
import { settings } from './settings.ts';
import { weather } from './weather.ts';

export const CATALOGUE = {
  access,
  commands,
  common,
  email,
  errors,
  forms,
  help,
  host,
  jobs,
  schedule,
  settings,
  weather,
};

/** The English messages of each area: the shape every key is typed from. */
export type Catalogue = { [N in keyof typeof CATALOGUE]: (typeof CATALOGUE)[N]['en-GB'] };
