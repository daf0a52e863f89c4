// Usage text for Slack, which has no typed options or autocomplete: one free-text field per slash
// command. Built from the command definitions (describeOptions), in the console's grammar.
import { describeOptions, type Command, type OptionSpec } from '../../src/core/command.ts';

function kind(spec: OptionSpec): string {
  if (spec.choices) return spec.choices.join('|');
  if (spec.type === 'string') return 'text';
  return spec.type;
}

function slot(spec: OptionSpec, isPositional: boolean): string {
  const inner = isPositional ? spec.name : `${spec.name}:${kind(spec)}`;
  return spec.required ? (isPositional ? `<${inner}>` : inner) : `[${inner}]`;
}

function details(spec: OptionSpec): string {
  const parts: string[] = [];
  if (spec.choices) parts.push(`one of ${spec.choices.join(', ')}`);
  if (spec.min !== undefined && spec.max !== undefined) parts.push(`${spec.min} to ${spec.max}`);
  else if (spec.min !== undefined) parts.push(`at least ${spec.min}`);
  else if (spec.max !== undefined) parts.push(`at most ${spec.max}`);
  if (spec.maxLength !== undefined) parts.push(`up to ${spec.maxLength} characters`);
  const fallback = spec.default;
  if (fallback !== undefined) {
    parts.push(`default ${typeof fallback === 'string' ? fallback : JSON.stringify(fallback)}`);
  }
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

/** `/weather <city> [units:metric|imperial]` */
export function usageLine(command: Command): string {
  const specs = describeOptions(command.options);
  const positional = command.positional
    .map((name) => specs.find((s) => s.name === name))
    .filter((s): s is OptionSpec => s !== undefined);
  const named = specs.filter((s) => !command.positional.includes(s.name));
  return [
    `/${command.name}`,
    ...positional.map((s) => slot(s, true)),
    ...named.map((s) => slot(s, false)),
  ].join(' ');
}

/** The whole usage message: the line, each option with its description, and the examples. */
export function usageText(command: Command): string {
  const lines = [`Usage: ${usageLine(command)}`, command.description];
  for (const spec of describeOptions(command.options)) {
    lines.push(`• ${spec.name}${spec.required ? ' (required)' : ''}: ${spec.description}${details(spec)}`);
  }
  if (command.examples.length > 0) lines.push(`Example: ${command.examples[0]}`);
  return lines.join('\n');
}

/** For a group called without a known subcommand: one line per subcommand. */
export function groupUsageText(group: string, subcommands: readonly Command[], unknown?: string): string {
  const head =
    unknown === undefined
      ? `/${group} needs a subcommand:`
      : `/${group} has no subcommand "${unknown}". Use one of:`;
  return [head, ...subcommands.map((c) => `• ${usageLine(c)}: ${c.description}`)].join('\n');
}

/** True when the command cannot run without arguments, so empty text deserves usage, not an error. */
export function needsArguments(command: Command): boolean {
  return describeOptions(command.options).some((s) => s.required);
}
