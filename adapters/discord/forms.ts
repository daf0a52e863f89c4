// herald's forms on Discord: a Form reply answered as a modal (only ever an interaction's first
// answer), and a modal's submit read back as the typed line its fields spell, so it runs through the
// dispatcher as that line would. Discord cannot answer a submit with another modal, so a refused
// submit gets a button that opens the form again filled in. The modal's custom_id and the button's
// target are component state (src/core/component-state.ts): a submit or a click on any replica
// finds them.
// https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-modal
import type { CommandRegistry, Invocation } from '../../src/core/adapter.ts';
import type { ComponentBatch, ComponentState, ComponentTarget } from '../../src/core/component-state.ts';
import { buildForm, formLine, formValuesOf, type FormValues } from '../../src/core/form.ts';
import type { Form } from '../../src/core/reply.ts';
import { renderDiscordModal, type DiscordModal } from '../../src/render/discord-form.ts';
import { modalValues, type Deferrable, type ModalSubmitPacket } from './interaction.ts';
import { discordError, type FirstAnswers } from './respond.ts';

/** What an interaction runs: the command and its raw input, and what its form needs. */
export interface Request extends Pick<Invocation, 'command' | 'rawInput' | 'openForm'> {
  /** A submit's values: a refusal gets the button that opens the form again with them. */
  submitted?: FormValues;
}

/** A slash command's or a button's request; a button that opens a form opens it with its input. */
export function requestOf(target: ComponentTarget): Request {
  return {
    command: target.command,
    rawInput: target.input,
    ...(target.opensForm === true ? { openForm: formValuesOf(target.input) } : {}),
  };
}

/** The modal for `form`; its custom_id names the command, and is handed back on submit. */
export function modalOf(form: Form, batch: ComponentBatch): DiscordModal {
  return renderDiscordModal(form, batch.idFor({ command: form.command, input: {} }));
}

/** The request a modal's submit makes: the typed line of its fields; undefined when its form is unknown. */
export async function submittedRequest(
  registry: CommandRegistry,
  state: ComponentState,
  packet: ModalSubmitPacket,
): Promise<Request | undefined> {
  const target = await state.resolve(packet.data.custom_id);
  const command = target === undefined ? undefined : registry.get(target.command);
  const form = command === undefined ? undefined : buildForm(command);
  if (command === undefined || form === undefined) return undefined;
  const values = modalValues(packet);
  return { command: command.name, rawInput: formLine(form, values), submitted: values };
}

/** Sends the modal as the interaction's first answer. */
export async function openModal(
  answers: Pick<FirstAnswers, 'modal'>,
  interaction: Exclude<Deferrable, ModalSubmitPacket>,
  modal: DiscordModal,
  token: string,
): Promise<void> {
  try {
    await answers.modal(interaction, modal);
  } catch (err) {
    throw discordError(err, 'send_failed', 'form', token);
  }
}
