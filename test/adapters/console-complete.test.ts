// Tab completion on its own (the PTY suite drives it through a real terminal): every candidate
// comes from the command definitions, as describeOptions reads them.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { completeLine } from '../../adapters/console/complete.ts';
import { defineCommand, type Command } from '../../src/core/command.ts';
import { createRegistry } from '../../src/core/registry.ts';

const reply = async () => ({ text: 'ok' });
const registry = createRegistry([
  defineCommand({
    name: 'weather',
    description: 'Weather',
    options: z.object({
      city: z.string().describe('City'),
      units: z.enum(['metric', 'imperial', 'standard']).default('metric').describe('Units'),
    }),
    positional: ['city'],
    needs: [],
    handler: reply,
  }),
  defineCommand({
    name: 'email send',
    description: 'Send',
    options: z.object({ to: z.string().describe('To'), html: z.boolean().optional().describe('As HTML') }),
    needs: [],
    handler: reply,
  }),
  defineCommand({
    name: 'email status',
    description: 'Status',
    options: z.object({ id: z.string().describe('Id') }),
    needs: [],
    handler: reply,
  }),
] as Command[]);

describe('completeLine', () => {
  it.each([
    ['wea', ['weather'], 'wea'],
    ['/wea', ['/weather'], '/wea'],
    ['', ['weather', 'email'], ''],
    ['/', ['/weather', '/email'], '/'],
    ['xyz', [], 'xyz'],
    ['email s', ['send', 'status'], 's'],
    ['/email st', ['status'], 'st'],
    ['/weather London un', ['units:'], 'un'],
    ['/weather ', ['city:', 'units:'], ''],
    ['/weather city:Oslo ', ['units:'], ''],
    ['/weather London units:', ['units:metric', 'units:imperial', 'units:standard'], 'units:'],
    ['/weather London units:IM', ['units:imperial'], 'units:IM'],
    ['/weather London city:', [], 'city:'],
    ['email send to:a@b.c h', ['html:'], 'h'],
    ['email send html:', ['html:true', 'html:false'], 'html:'],
    ['/nope x', [], 'x'],
  ])('%j → %j', (line, hits, replaced) => {
    expect(completeLine(registry, line)).toEqual([hits, replaced]);
  });

  it('offers nothing inside an open quote', () => {
    expect(completeLine(registry, '/weather "New Yo')[0]).toEqual([]);
  });
});
