// What each option of a command is (type, bounds, choices, default, description, whether it takes
// a command line), read through zod's public JSON Schema export, which carries `.meta()` too, for
// help, Discord option types, Slack usage and console parsing.
// https://zod.dev/json-schema
import { z } from 'zod';

export type OptionType = 'string' | 'integer' | 'number' | 'boolean';

export interface OptionSpec {
  name: string;
  description: string;
  type: OptionType;
  required: boolean;
  choices?: readonly string[];
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  /**
   * It takes a command line (`.meta({ commandLine: true })`): in typed text, the first word starting
   * with "/" begins its value, which is the rest of the text as typed (input/bind.ts).
   */
  commandLine?: true;
}

/** The parts of a JSON Schema node an option can carry. */
interface SchemaNode {
  type?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  anyOf?: SchemaNode[];
  /** zod's metadata is written into the node beside the schema's own keys. */
  commandLine?: unknown;
}

/** A nullable option is `anyOf [T, null]`; the option's own shape is the non-null branch. */
function unwrap(node: SchemaNode): SchemaNode {
  const branch = node.anyOf?.find((b) => b.type !== 'null');
  if (branch === undefined) return node;
  const inner = unwrap(branch);
  return {
    ...inner,
    description: node.description ?? inner.description,
    default: node.default ?? inner.default,
    commandLine: node.commandLine ?? inner.commandLine,
  };
}

function typeOf(node: SchemaNode): OptionType {
  if (node.type === 'integer') return 'integer';
  if (node.type === 'number') return 'number';
  if (node.type === 'boolean') return 'boolean';
  return 'string';
}

function specOf(name: string, node: SchemaNode, required: boolean): OptionSpec {
  const type = typeOf(node);
  const spec: OptionSpec = { name, description: node.description ?? '', type, required };
  const values = node.enum ?? (node.const === undefined ? undefined : [node.const]);
  if (values !== undefined && values.every((v) => typeof v === 'string')) spec.choices = values;
  if (type === 'integer' || type === 'number') {
    if (Number.isFinite(node.minimum)) spec.min = node.minimum;
    if (Number.isFinite(node.maximum)) spec.max = node.maximum;
  }
  if (type === 'string') {
    if (node.minLength !== undefined) spec.minLength = node.minLength;
    if (node.maxLength !== undefined) spec.maxLength = node.maxLength;
  }
  if (node.default !== undefined) spec.default = node.default;
  if (node.commandLine === true && type === 'string') spec.commandLine = true;
  return spec;
}

/** Each option's type, bounds and description, in the order of the schema's fields. */
export function describeOptions(schema: z.ZodObject): OptionSpec[] {
  // The input side: what a person types, before defaults and transforms apply.
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, SchemaNode>;
    required?: string[];
  };
  const required = new Set(json.required ?? []);
  return Object.keys(schema.shape).map((name) =>
    specOf(name, unwrap(json.properties?.[name] ?? {}), required.has(name)),
  );
}

const cache = new WeakMap<z.ZodObject, OptionSpec[]>();

/** describeOptions, computed once per schema. */
export function optionSpecs(schema: z.ZodObject): OptionSpec[] {
  let specs = cache.get(schema);
  if (specs === undefined) {
    specs = describeOptions(schema);
    cache.set(schema, specs);
  }
  return specs;
}
