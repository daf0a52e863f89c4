// A schedule's ping: is the one way a post pings anyone: each renderer writes exactly its
// platform's mentions first and lists exactly those ids (Discord's allowed_mentions), never in a
// private answer; every other text still pings no one.
import { describe, expect, it } from 'vitest';
import type { Reply } from '../../src/core/reply.ts';
import { parseMentions, type Mention } from '../../src/domain/mentions.ts';
import { renderDiscord, renderDiscordWebhook } from '../../src/render/discord.ts';
import { renderSlack } from '../../src/render/slack.ts';
import { renderConsole } from '../../adapters/console/render.ts';

const ROLE = '500000000000000009';
const USER = '400000000000000007';
const mentions: Mention[] = [
  { platform: 'discord', kind: 'role', id: ROLE },
  { platform: 'discord', kind: 'user', id: USER },
  { platform: 'slack', kind: 'role', id: 'S0ONCALL1' },
  { platform: 'slack', kind: 'user', id: 'U024BE7LH' },
];
// Text from a user or a provider that looks like mentions: still pings no one.
const post: Reply = {
  text: 'Oslo: snow <@&111111111111111111> <@222222222222222222> @everyone <!here> <@U0OTHER1>',
  mentions,
};

describe('parseMentions', () => {
  it('reads Discord’s and Slack’s mention forms, labels included, once each', () => {
    expect(
      parseMentions(`<@&${ROLE}> <@!${USER}>, <@${USER}> <!subteam^S0ONCALL1|@on-call> <@U024BE7LH|ada>`),
    ).toEqual(mentions);
  });

  it.each([['@on-call'], ['<@&12>'], ['<!channel>'], ['<!here>'], ['everyone'], [`<@&${ROLE}> Oslo`], ['']])(
    'refuses %j: not a mention of one role or user',
    (text) => {
      expect(parseMentions(text)).toBeUndefined();
    },
  );
});

describe('a post’s mentions', () => {
  it('Discord: the content leads with exactly the role and user, and allowed_mentions lists exactly them', () => {
    const message = renderDiscord(post);
    expect(message.content.split('\n')[0]).toBe(`<@&${ROLE}> <@${USER}>`);
    expect(message.allowed_mentions).toEqual({ parse: [], roles: [ROLE], users: [USER] });
    const hook = renderDiscordWebhook(post);
    expect(hook.content?.startsWith(`<@&${ROLE}> <@${USER}>\n`)).toBe(true);
    expect(hook.allowed_mentions).toEqual({ parse: [], roles: [ROLE], users: [USER] });
  });

  it('Slack: the first block is exactly the group and the user; the text around stays escaped', () => {
    const message = renderSlack(post);
    expect(message.blocks[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: '<!subteam^S0ONCALL1> <@U024BE7LH>', verbatim: true },
    });
    const rest = JSON.stringify(message.blocks.slice(1));
    expect(rest).not.toMatch(/<[@!#]/);
    expect(message.text.startsWith('<!subteam^S0ONCALL1> <@U024BE7LH> ')).toBe(true);
    expect(message.text.slice('<!subteam^S0ONCALL1> <@U024BE7LH> '.length)).not.toMatch(/<[@!#]/);
  });

  it('pings no one without a ping:, and no one in a private answer (a preview shows them only)', () => {
    const { mentions: _, ...plain } = post;
    expect(renderDiscord(plain).allowed_mentions).toEqual({ parse: [] });
    expect(renderDiscordWebhook(plain)).not.toHaveProperty('allowed_mentions');
    expect(JSON.stringify(renderSlack(plain).blocks)).not.toMatch(/<[@!#]/);
    const preview = renderDiscord({ ...post, ephemeral: true });
    expect(preview.content.startsWith(`<@&${ROLE}> <@${USER}>`)).toBe(true);
    expect(preview.allowed_mentions).toEqual({ parse: [] });
    expect(renderConsole(post).split('\n')[0]).toBe(
      `<@&${ROLE}> <@${USER}> <!subteam^S0ONCALL1> <@U024BE7LH>`,
    );
  });
});
