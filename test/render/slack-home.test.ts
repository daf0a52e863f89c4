// The Home tab renderer (src/render/slack-home.ts) keeps what Slack documents for a home view and its
// parts: at most 100 blocks (entries past them left out and counted in a note), a section's 3000
// characters, a header's 150, a button's 75 and its value's 2000, a confirm dialog's 100/300/30,
// action_ids unique and within 255; times as Slack's date tokens; text escaped, never markup.
import { describe, expect, it } from 'vitest';
import { timeValue, type Action, type Home, type Reply } from '../../src/core/reply.ts';
import { SLACK_LIMITS } from '../../src/domain/slack.ts';
import { renderSlackHome } from '../../src/render/slack-home.ts';

const LONG = 'x'.repeat(5000);
const at = new Date('2026-03-30T07:30:00Z');

function item(i: number) {
  const actions: Action[] = [
    { label: 'Run now', command: 'schedule run', input: { id: `s${i}` } },
    {
      label: `Remove ${LONG}`,
      command: 'schedule remove',
      input: { id: `s${i}` },
      confirm: { question: `Remove schedule s${i}? ${LONG}`, yes: `Remove ${LONG}`, no: 'Cancel' },
    },
  ];
  return {
    title: `s${i} · <!channel> *bold* ${LONG}`,
    lines: [`Next: ${timeValue(at, 'UTC', 'fR')}`, LONG],
    actions,
  };
}

function homeOf(items: number): Reply {
  const home: Home = {
    title: `My schedules ${LONG}`,
    intro: `${items} schedules you added.`,
    language: 'en-GB',
    items: Array.from({ length: items }, (_, i) => item(i)),
    actions: [{ label: 'New schedule', command: 'schedule add', input: {}, opensForm: true }],
    notes: ['A note.'],
  };
  return { text: home.intro, home };
}

type Block = { type: string; text?: { text: string }; elements?: Record<string, unknown>[] };

describe('renderSlackHome', () => {
  it('keeps a home view within Slack’s limits, and counts the entries it leaves out', () => {
    const view = renderSlackHome(homeOf(60), { text: 'Schedule s1 is paused.' });
    const blocks = view.blocks as Block[];
    expect(view.type).toBe('home');
    expect(blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.viewBlocks);
    expect(blocks[0]!.type).toBe('header');
    expect(blocks[0]!.text!.text.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
    expect(blocks[1]!.text!.text).toBe('Schedule s1 is paused.');
    for (const b of blocks.filter((b) => b.type === 'section'))
      expect(b.text!.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    const buttons = blocks.flatMap((b) => (b.type === 'actions' ? b.elements! : [])) as {
      action_id: string;
      value: string;
      text: { text: string };
      confirm?: Record<string, { text: string }>;
    }[];
    expect(new Set(buttons.map((b) => b.action_id)).size).toBe(buttons.length);
    for (const b of buttons) {
      expect(b.action_id.length).toBeLessThanOrEqual(SLACK_LIMITS.actionId);
      expect(b.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.buttonText);
      expect(b.value.length).toBeLessThanOrEqual(SLACK_LIMITS.buttonValue);
    }
    const confirm = buttons.find((b) => b.confirm)!.confirm!;
    expect(confirm.title!.text.length).toBeLessThanOrEqual(SLACK_LIMITS.confirmTitle);
    expect(confirm.text!.text.length).toBeLessThanOrEqual(SLACK_LIMITS.confirmText);
    expect(confirm.confirm!.text.length).toBeLessThanOrEqual(SLACK_LIMITS.confirmButton);
    expect(confirm.deny!.text).toBe('Cancel');
    const shown = blocks.filter((b) => b.type === 'section' && b.text!.text.startsWith('*s')).length;
    const note = blocks.at(-1)!.elements![0] as { text: string };
    expect(note.text).toBe(`A note. ${60 - shown} more not shown: a Home tab holds 100 blocks.`);
  });

  it('writes times as Slack’s date tokens and escapes what the entries say', () => {
    const view = renderSlackHome(homeOf(1));
    const entry = (view.blocks as Block[]).find(
      (b) => b.type === 'section' && b.text!.text.startsWith('*s0'),
    )!;
    expect(entry.text!.text).toContain(`<!date^${at.getTime() / 1000}^{date_short_pretty} {time}|`);
    expect(entry.text!.text).not.toContain('<!channel>');
  });

  it('draws a reply without a Home as its text', () => {
    expect(renderSlackHome({ text: 'Slow down.' }).blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: 'Slow down.', verbatim: true } },
    ]);
  });
});
