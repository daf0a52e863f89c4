// Autocomplete on Discord: the focused option's choices, asked of the dispatcher and answered as
// the interaction's one response (type 8) within Discord's 3 s; anything that goes wrong is no choices.
// https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-autocomplete
import type { AdapterHandlers } from '../../src/core/adapter.ts';
import type { Choice, CommandLog } from '../../src/core/command.ts';
import type { DiscordConfig } from '../../src/config/index.ts';
import { renderChoices } from '../../src/render/discord.ts';
import { actorOf, commandName, focusedOption, type AutocompletePacket } from './interaction.ts';
import { safeError, type FirstAnswers } from './respond.ts';

/** What answering autocomplete reads of the adapter's session. */
interface AutocompleteSession {
  readonly config: Pick<DiscordConfig, 'token'>;
  readonly log: CommandLog;
  readonly autocompleteDeadlineMs: number;
  readonly answers: Pick<FirstAnswers, 'choices'>;
}

export async function answerAutocomplete(
  session: AutocompleteSession,
  handlers: AdapterHandlers,
  interaction: AutocompletePacket,
): Promise<void> {
  const focused = focusedOption(interaction);
  const request = {
    command: commandName(interaction),
    option: focused?.name ?? '',
    partial: focused?.partial ?? '',
    actor: actorOf(interaction),
  };
  let choices: Choice[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline = new Promise<Choice[]>((resolve) => {
      timer = setTimeout(() => resolve([]), session.autocompleteDeadlineMs);
    });
    choices = focused ? await Promise.race([handlers.onAutocomplete(request), deadline]) : [];
  } catch (err) {
    session.log.warn(
      { err: safeError(err, session.config.token), command: request.command, option: request.option },
      'discord.autocomplete_failed',
    );
  } finally {
    clearTimeout(timer);
  }
  await session.answers.choices(interaction, renderChoices(choices));
}
