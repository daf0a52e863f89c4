// The replies' formatting lives in src/format.ts, the one module that commands, jobs and adapters
// share (numbers, units, sizes, percentages, dates). Re-exported here for the commands.
export * from '../src/format.ts';

import { formatNumber } from '../src/format.ts';
import type { Translate } from '../src/i18n/translate.ts';

/** "a, b and 3 more" in the reader's language: the first `shown` of `items`, then how many are left. */
export function listMore(items: readonly string[], shown: number, t: Translate, locale: string): string {
  if (items.length <= shown) return items.join(', ');
  const n = formatNumber(items.length - shown, 0, locale);
  return t('common:andMore', { list: items.slice(0, shown).join(', '), n });
}
