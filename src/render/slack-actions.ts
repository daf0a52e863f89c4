// A reply's actions in a Slack message: buttons whose value carries the command and its input
// (read back by the adapter when clicked), or, where no app answers a click (an incoming webhook),
// one context block of commands to type.
import { actionHintLine, type Action } from '../core/reply.ts';
import { escapePlainText, formatMrkdwn } from './slack-escape.ts';
import {
  MAX_ACTION_ELEMENTS,
  MAX_ACTIONS_JSON,
  MAX_BUTTON_TEXT,
  MAX_BUTTON_VALUE,
  MAX_BUTTONS,
  MAX_CONTEXT_ELEMENTS,
  MAX_CONTEXT_TEXT,
  mrkdwn,
  type Button,
  type KnownBlock,
} from './slack-payload.ts';
import { truncate } from '../domain/text.ts';
import { SLACK_LIMITS } from '../domain/slack.ts';
import { truncateMrkdwn } from './slack-text.ts';

export const ACTION_ID_PREFIX = 'herald:run:';

interface ActionPayload {
  command: string;
  input: Record<string, string | number | boolean>;
  /** Opens the command's form with `input` instead of running it. */
  opensForm?: boolean;
}

/** The button value: {command, input} as JSON, or undefined when Slack's 2000 characters cannot hold it. */
export function encodeActionValue(action: Action): string | undefined {
  const { command, input } = action;
  const payload: ActionPayload = {
    command,
    input,
    ...(action.opensForm === true ? { opensForm: true } : {}),
  };
  const value = JSON.stringify(payload);
  return value.length <= MAX_BUTTON_VALUE ? value : undefined;
}

export function decodeActionValue(value: string | undefined): ActionPayload | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { command, input, opensForm } = parsed as { command?: unknown; input?: unknown; opensForm?: unknown };
  if (typeof command !== 'string' || typeof input !== 'object' || input === null || Array.isArray(input)) {
    return undefined;
  }
  const entries = Object.entries(input as Record<string, unknown>);
  if (!entries.every(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))) return undefined;
  const payload: ActionPayload = { command, input: Object.fromEntries(entries) as ActionPayload['input'] };
  return opensForm === true ? { ...payload, opensForm: true } : payload;
}

const plainText = (text: string, max: number) => ({
  type: 'plain_text' as const,
  text: truncate(escapePlainText(text.replace(/\s+/g, ' ').trim()), max, { entities: true }),
  emoji: true,
});

/**
 * The button for `action` under `actionId`, with its confirm dialog where it asks one; undefined
 * when its value cannot hold the action.
 */
export function slackButton(action: Action, actionId: string): Button | undefined {
  const value = encodeActionValue(action);
  if (value === undefined) return undefined;
  const label = escapePlainText(action.label.replace(/\s+/g, ' ').trim()) || action.command;
  const button: Button = {
    type: 'button',
    action_id: actionId,
    text: { type: 'plain_text', text: truncate(label, MAX_BUTTON_TEXT, { entities: true }), emoji: true },
    value,
  };
  const { confirm } = action;
  if (confirm)
    button.confirm = {
      title: plainText(action.label, SLACK_LIMITS.confirmTitle),
      text: plainText(confirm.question, SLACK_LIMITS.confirmText),
      confirm: plainText(confirm.yes, SLACK_LIMITS.confirmButton),
      deny: plainText(confirm.no, SLACK_LIMITS.confirmButton),
      style: 'danger',
    };
  return button;
}

export function actionBlocks(actions: readonly Action[]): { blocks: KnownBlock[]; dropped: number } {
  const buttons: Button[] = [];
  let size = 0;
  for (const [i, action] of actions.entries()) {
    const button = buttons.length < MAX_BUTTONS ? slackButton(action, `${ACTION_ID_PREFIX}${i}`) : undefined;
    if (button === undefined) continue;
    const buttonSize = JSON.stringify(button).length + 1;
    if (size + buttonSize > MAX_ACTIONS_JSON) continue;
    size += buttonSize;
    buttons.push(button);
  }
  const blocks: KnownBlock[] = [];
  for (let i = 0; i < buttons.length; i += MAX_ACTION_ELEMENTS) {
    blocks.push({ type: 'actions', elements: buttons.slice(i, i + MAX_ACTION_ELEMENTS) });
  }
  return { blocks, dropped: actions.length - buttons.length };
}

/** Actions as one context block of commands to type, for a message whose buttons no one would answer. */
export function hintBlocks(actions: readonly Action[]): { blocks: KnownBlock[]; dropped: number } {
  const lines = actions
    .slice(0, MAX_CONTEXT_ELEMENTS)
    .map((action) => mrkdwn(truncateMrkdwn(formatMrkdwn(actionHintLine(action)), MAX_CONTEXT_TEXT)));
  return {
    blocks: lines.length === 0 ? [] : [{ type: 'context', elements: lines }],
    dropped: actions.length - lines.length,
  };
}
