import { describe, expect, it } from 'vitest';
import { route } from '../../../adapters/slack/route.ts';
import type { Command } from '../../../src/core/command.ts';
import { isGroup } from '../../../src/core/adapter.ts';
import { createTestRegistry } from './fakes.ts';

const entries = createTestRegistry().entries;
const entry = (name: string) => entries.find((e) => e.name === name)!;
const command = (name: string) => entry(name) as Command;

describe('route', () => {
  it('declares one slash command per top-level name, groups sharing theirs', () => {
    expect(entries.map((e) => e.name)).toEqual(['weather', 'slow', 'broken', 'say', 'jobs', 'email']);
    const email = entry('email');
    expect(isGroup(email) && email.subcommands.map((s) => s.name)).toEqual(['send', 'status']);
  });

  it('passes a plain command its whole text', () => {
    const routed = route(entry('jobs'), 'rust developer page:2');
    expect(routed).toEqual({ command: command('jobs'), rest: 'rust developer page:2' });
  });

  it('picks a subcommand by its first word, in any case, and hands on the rest', () => {
    const routed = route(entry('email'), 'SEND to:a@example.com  subject:"Hi there"');
    expect('command' in routed && routed.command.name).toBe('email send');
    expect('rest' in routed && routed.rest).toBe('to:a@example.com  subject:"Hi there"');
  });

  it('asks for arguments instead of running a command that needs them', () => {
    expect(route(entry('weather'), '')).toEqual({ usage: expect.stringContaining('Usage: /weather <city>') });
    expect(route(entry('slow'), '')).toEqual({ command: command('slow'), rest: '' });
  });
});
