// A Form as Discord's modal (interaction response type 9): an action row of one text input per
// field, at most 5, within the title's, labels' and values' limits (src/domain/discord.ts). Discord
// hands the modal's custom_id and each input's custom_id (the field's name) back on submit.
// https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-modal
import type { Form } from '../core/reply.ts';
import { DISCORD_LIMITS } from '../domain/discord.ts';
import { truncate } from '../domain/text.ts';
import { ACTION_ROW } from './discord-payload.ts';
import { withoutControls } from './text-safety.ts';

const TEXT_INPUT = 4;
const SHORT = 1;
const PARAGRAPH = 2;

interface DiscordTextInput {
  type: typeof TEXT_INPUT;
  custom_id: string;
  style: typeof SHORT | typeof PARAGRAPH;
  label: string;
  placeholder?: string;
  required: boolean;
  max_length: number;
  value?: string;
}

/** The `data` of a type 9 answer. */
export interface DiscordModal {
  custom_id: string;
  title: string;
  components: { type: typeof ACTION_ROW; components: [DiscordTextInput] }[];
}

const L = DISCORD_LIMITS;
const clean = (text: string, max: number) => truncate(withoutControls(text), max, { oneLine: true });

/** The modal for `form`, under `customId` (what the submit is recognised by); fields past 5 are dropped. */
export function renderDiscordModal(form: Form, customId: string): DiscordModal {
  return {
    custom_id: customId,
    title: clean(form.title, L.modalTitle),
    components: form.fields.slice(0, L.modalInputs).map((field) => {
      const maxLength = Math.min(field.maxLength, L.inputLength);
      const input: DiscordTextInput = {
        type: TEXT_INPUT,
        custom_id: field.name,
        style: field.isLong ? PARAGRAPH : SHORT,
        label: clean(field.label, L.inputLabel),
        required: field.isRequired,
        max_length: maxLength,
      };
      if (field.hint !== '') input.placeholder = clean(field.hint, L.inputPlaceholder);
      // A value keeps its newlines (a paragraph's); only the other control characters go.
      if (field.value !== undefined) input.value = withoutControls(field.value);
      return { type: ACTION_ROW, components: [input] };
    }),
  };
}
