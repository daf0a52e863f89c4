// What `npm start -- --check --online` prints: one line per item checked, with the fix when it failed.

export interface CheckLine {
  /** `note`: nothing to fail, but something the operator should know (what cannot be checked). */
  status: 'ok' | 'fail' | 'note';
  /** What was checked: "discord token", "destination ops", "service weather". */
  item: string;
  /** What was found; for a failure, what Discord, Slack or the provider answered and the fix. */
  text: string;
}

const MARK: Readonly<Record<CheckLine['status'], string>> = { ok: 'ok  ', fail: 'FAIL', note: 'note' };

export function formatCheckLine(line: CheckLine): string {
  return `${MARK[line.status]}  ${line.item}: ${line.text}`;
}
