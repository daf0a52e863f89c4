// Slack text as it arrives: slash command text is entity-escaped and, with "escape channels, users
// and links", carries <…> markup (https://docs.slack.dev/messaging/formatting-message-text#escaping).
// What herald sends is escaped by the one Slack renderer (src/render/slack-escape.ts).

/**
 * Slash command text as the user typed it: link markup unwrapped (`<mailto:a@b.c|a@b.c>` →
 * `a@b.c`, `<https://x|x>` → `https://x`), then Slack's entities decoded. User, channel and
 * broadcast references (`<@U1>`, `<#C1|x>`, `<!here>`) are kept as Slack sent them.
 */
export function decodeSlackText(text: string): string {
  return text
    .replace(/<(mailto:|https?:\/\/)([^|>]*)(?:\|[^>]*)?>/g, (_m, scheme: string, rest: string) =>
      scheme === 'mailto:' ? rest : `${scheme}${rest}`,
    )
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
