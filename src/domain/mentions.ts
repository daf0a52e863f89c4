// Who a scheduled post may ping: only the roles and users a schedule admin named with `ping:`, each
// written as its platform writes a mention. Discord: `<@&role>`, `<@user>`
// (https://discord.com/developers/docs/reference#message-formatting); Slack: `<!subteam^ID>` for a
// user group, `<@U…>` for a user (https://docs.slack.dev/messaging/formatting-message-text), as
// Slack hands them to a slash command with their label (`<@U024BE7LH|ada>`). Everything else herald
// sends pings no one.

export interface Mention {
  platform: 'discord' | 'slack';
  /** A Discord role or a Slack user group; a user. */
  kind: 'role' | 'user';
  id: string;
}

const FORMS: readonly { re: RegExp; platform: Mention['platform']; kind: Mention['kind'] }[] = [
  { re: /^<@&(\d{17,20})>$/, platform: 'discord', kind: 'role' },
  { re: /^<@!?(\d{17,20})>$/, platform: 'discord', kind: 'user' },
  { re: /^<!subteam\^(S[A-Z0-9]{2,20})(?:\|[^<>]*)?>$/, platform: 'slack', kind: 'role' },
  { re: /^<@([UW][A-Z0-9]{2,20})(?:\|[^<>]*)?>$/, platform: 'slack', kind: 'user' },
];

/** The mentions of a `ping:` list (separated by spaces or commas); undefined when a word is none. */
export function parseMentions(text: string): Mention[] | undefined {
  const mentions = new Map<string, Mention>();
  for (const word of text.split(/[\s,]+/).filter((w) => w !== '')) {
    const form = FORMS.find((f) => f.re.test(word));
    const id = form?.re.exec(word)?.[1];
    if (!form || id === undefined) return undefined;
    mentions.set(`${form.platform}:${form.kind}:${id}`, { platform: form.platform, kind: form.kind, id });
  }
  return mentions.size === 0 ? undefined : [...mentions.values()];
}

/** A mention as its platform writes it in a message. */
export function mentionToken(m: Mention): string {
  if (m.platform === 'discord') return m.kind === 'role' ? `<@&${m.id}>` : `<@${m.id}>`;
  return m.kind === 'role' ? `<!subteam^${m.id}>` : `<@${m.id}>`;
}
