// A reply's actions in a Discord message: buttons in action rows where a click reaches herald (the
// adapter's custom ids), else lines naming the command to type (a webhook's post).
import { actionHintLine, actionToCommandLine, type Action } from '../core/reply.ts';
import {
  ACTION_ROW,
  BUTTON,
  BUTTON_LABEL_MAX,
  BUTTONS_PER_ROW,
  ROWS_MAX,
  SECONDARY,
  type DiscordActionRow,
  type DiscordButton,
} from './discord-payload.ts';
import { clip, defuseMaskedLinks, type Notes } from './discord-text.ts';

/** Command lines for actions that cannot be buttons: at most this many. */
const MAX_ACTION_HINTS = 5;

export function renderButtons(
  actions: readonly Action[],
  customIdFor: (action: Action) => string,
  notes: Notes,
): DiscordActionRow[] {
  const buttons: DiscordButton[] = [];
  const seen = new Set<string>();
  for (const action of actions) {
    const customId = customIdFor(action);
    // Custom ids must be unique within a message; the same action twice is one button.
    if (seen.has(customId)) continue;
    seen.add(customId);
    const label = action.label.trim() === '' ? actionToCommandLine(action) : action.label;
    buttons.push({
      type: BUTTON,
      style: SECONDARY,
      label: clip(label, BUTTON_LABEL_MAX, notes),
      custom_id: customId,
    });
  }
  const max = BUTTONS_PER_ROW * ROWS_MAX;
  if (buttons.length > max) notes.droppedButtons += buttons.length - max;
  const rows: DiscordActionRow[] = [];
  for (let i = 0; i < Math.min(buttons.length, max); i += BUTTONS_PER_ROW) {
    rows.push({ type: ACTION_ROW, components: buttons.slice(i, i + BUTTONS_PER_ROW) });
  }
  return rows;
}

/** Actions as lines naming the command to type, for a message that carries no buttons. */
export function actionHints(actions: readonly Action[], notes: Notes): string[] {
  if (actions.length > MAX_ACTION_HINTS) notes.droppedButtons += actions.length - MAX_ACTION_HINTS;
  return actions.slice(0, MAX_ACTION_HINTS).map((action) =>
    // "-# " is Discord's subtext markdown: a small grey line.
    defuseMaskedLinks(`-# ${actionHintLine(action)}`),
  );
}
