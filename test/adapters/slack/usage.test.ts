import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { groupUsageText, needsArguments, usageLine, usageText } from '../../../adapters/slack/usage.ts';
import { defineCommand } from '../../../src/core/command.ts';

const jobs = defineCommand({
  name: 'jobs',
  description: 'Search job listings',
  options: z.object({
    what: z.string().max(100).describe('Job title or keywords'),
    where: z.string().optional().describe('City or region'),
    country: z.enum(['gb', 'de', 'fr']).default('gb').describe('Country'),
    page: z.number().int().min(1).max(50).optional().describe('Result page'),
  }),
  positional: ['what'],
  needs: [],
  examples: ['/jobs "rust developer" where:Berlin country:de'],
  handler: async () => ({ text: '' }),
});

const voices = defineCommand({
  name: 'voices',
  description: 'List voices',
  options: z.object({}),
  needs: [],
  handler: async () => ({ text: '' }),
});

describe('usage', () => {
  it('writes the usage line in the console grammar: positional first, then key:value', () => {
    expect(usageLine(jobs)).toBe('/jobs <what> [where:text] [country:gb|de|fr] [page:integer]');
  });

  it('lists every option with its description, bounds, choices and default, and an example', () => {
    expect(usageText(jobs)).toBe(
      [
        'Usage: /jobs <what> [where:text] [country:gb|de|fr] [page:integer]',
        'Search job listings',
        '• what (required): Job title or keywords (up to 100 characters)',
        '• where: City or region',
        '• country: Country (one of gb, de, fr; default gb)',
        '• page: Result page (1 to 50)',
        'Example: /jobs "rust developer" where:Berlin country:de',
      ].join('\n'),
    );
  });

  it('lists the subcommands of a group, naming an unknown one', () => {
    expect(groupUsageText('jobs', [jobs], 'find')).toBe(
      '/jobs has no subcommand "find". Use one of:\n• /jobs <what> [where:text] [country:gb|de|fr] [page:integer]: Search job listings',
    );
  });

  it('asks for arguments only when an option is required', () => {
    expect(needsArguments(jobs)).toBe(true);
    expect(needsArguments(voices)).toBe(false);
  });
});
