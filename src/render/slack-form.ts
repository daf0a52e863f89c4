// A Form as Slack's modal view (views.open): an input block of a plain_text_input per field, its
// block_id and action_id the field's name (view_submission hands its values back under them, and
// `response_action: errors` names the block), within the view's limits (src/domain/slack.ts).
// https://docs.slack.dev/reference/views/modal-views
// https://docs.slack.dev/reference/block-kit/blocks/input-block
import type { Form } from '../core/reply.ts';
import { SLACK_LIMITS } from '../domain/slack.ts';
import { truncate } from '../domain/text.ts';
import { escapePlainText } from './slack-escape.ts';
import { withoutControls } from './text-safety.ts';

/** The callback_id of herald's forms: this prefix, then the command a submit runs. */
export const FORM_CALLBACK_PREFIX = 'herald:form:';

interface PlainText {
  type: 'plain_text';
  text: string;
}

interface InputBlock {
  type: 'input';
  block_id: string;
  optional: boolean;
  label: PlainText;
  element: {
    type: 'plain_text_input';
    action_id: string;
    multiline: boolean;
    max_length: number;
    placeholder?: PlainText;
    initial_value?: string;
  };
}

/** The view views.open takes. */
interface SlackModalView {
  type: 'modal';
  callback_id: string;
  private_metadata: string;
  title: PlainText;
  submit: PlainText;
  close: PlainText;
  blocks: InputBlock[];
}

const L = SLACK_LIMITS;
const plain = (text: string, max: number): PlainText => ({
  type: 'plain_text',
  text: truncate(escapePlainText(withoutControls(text)), max, { entities: true, oneLine: true }),
});

/**
 * The modal for `form`; `metadata` (where the form was opened) comes back with the submit. The
 * callback_id names the command, so a submit on any replica knows what to run.
 */
export function renderSlackModal(form: Form, metadata: string): SlackModalView {
  return {
    type: 'modal',
    callback_id: truncate(`${FORM_CALLBACK_PREFIX}${form.command}`, L.viewCallbackId),
    private_metadata: metadata.length <= L.viewMetadata ? metadata : '',
    title: plain(form.title, L.viewTitle),
    submit: plain('Submit', L.viewTitle),
    close: plain('Cancel', L.viewTitle),
    blocks: form.fields.slice(0, L.viewBlocks).map((field) => {
      const maxLength = Math.min(field.maxLength, L.inputLength);
      const element: InputBlock['element'] = {
        type: 'plain_text_input',
        action_id: field.name,
        multiline: field.isLong,
        max_length: maxLength,
      };
      if (field.hint !== '') element.placeholder = plain(field.hint, L.inputPlaceholder);
      if (field.value !== undefined) element.initial_value = withoutControls(field.value);
      return {
        type: 'input',
        block_id: field.name,
        optional: !field.isRequired,
        label: plain(field.label, L.inputLabel),
        element,
      };
    }),
  };
}
