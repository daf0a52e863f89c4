// Pure text for /help, generated from the command definitions: usage lines and option details.
import { describeOptions, type Command, type OptionSpec } from '../src/core/command.ts';
import { formatNumber } from './format.ts';

/** "/jobs what [where] [country] [page]": required options bare, optional ones in brackets. */
export function usageLine(command: Command): string {
  // A message command is not typed: it is found on a message's menu (Discord's Apps, Slack's More actions).
  if (command.onMessage !== undefined) return `${command.onMessage} (on a message's menu)`;
  const parts = describeOptions(command.options).map((o) => (o.required ? o.name : `[${o.name}]`));
  return [`/${command.name}`, ...parts].join(' ');
}

function bounds(min: number | undefined, max: number | undefined, unit = ''): string | undefined {
  if (min !== undefined && min === max) return `${formatNumber(min)}${unit}`;
  if (min !== undefined && max !== undefined) return `${formatNumber(min)}–${formatNumber(max)}${unit}`;
  if (min !== undefined) return `at least ${formatNumber(min)}${unit}`;
  if (max !== undefined) return `at most ${formatNumber(max)}${unit}`;
  return undefined;
}

/** "whole number 1–10, optional, default 5". */
export function describeType(spec: OptionSpec): string {
  let type: string;
  if (spec.choices) type = `one of ${spec.choices.join(', ')}`;
  else if (spec.type === 'integer')
    type = ['whole number', bounds(spec.min, spec.max)].filter(Boolean).join(' ');
  else if (spec.type === 'number') type = ['number', bounds(spec.min, spec.max)].filter(Boolean).join(' ');
  else if (spec.type === 'boolean') type = 'true or false';
  else {
    const length = bounds(spec.minLength === 1 ? undefined : spec.minLength, spec.maxLength, ' characters');
    type = length ? `text, ${length}` : 'text';
  }
  const parts = [type, spec.required ? 'required' : 'optional'];
  const value = spec.default;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    parts.push(`default ${String(value)}`);
  }
  return parts.join(', ');
}

/** Each option's name, its type in words and its description. */
export function optionDetails(command: Command): { name: string; type: string; description: string }[] {
  return describeOptions(command.options).map((spec) => ({
    name: spec.name,
    type: describeType(spec),
    description: spec.description,
  }));
}

/** How options are typed where there is no form (console, Slack). */
export function syntaxHint(command: Command): string | undefined {
  const specs = describeOptions(command.options);
  if (specs.length === 0) return undefined;
  const positional =
    command.positional.length > 0
      ? ` ${command.positional.join(', ')} can also be given as plain words, in that order.`
      : '';
  const sample = specs.find((s) => !command.positional.includes(s.name)) ?? specs[0]!;
  return `In the console and Slack, write options as name:value, with quotes around several words, e.g. ${sample.name}:"two words".${positional}`;
}
