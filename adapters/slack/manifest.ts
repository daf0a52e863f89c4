// The Slack app manifest herald needs, built from the registry: one slash command per top-level
// name (a group such as /email or /schedule is one command whose first word picks the
// subcommand, as route.ts reads it), the bot scopes the adapter uses, and Socket Mode or HTTP mode.
// Paste it at https://api.slack.com/apps → Create New App → From an app manifest (JSON tab).
// Shape: https://docs.slack.dev/reference/app-manifest
import { groupDescription, isGroup, type CommandRegistry } from '../../src/core/adapter.ts';
import type { Command } from '../../src/core/command.ts';
import { usageLine } from './usage.ts';

export interface SlackSlashCommand {
  command: string;
  description: string;
  usage_hint?: string;
  should_escape: false;
  /** HTTP mode only: where Slack posts the command. */
  url?: string;
}

/** A message shortcut: on a message's "More actions" menu (Read aloud). */
export interface SlackShortcut {
  name: string;
  type: 'message';
  callback_id: string;
  description: string;
}

export interface SlackManifest {
  display_information: { name: string; description: string };
  features: {
    /** The Home tab (My schedules) and the Messages tab, where herald's direct messages arrive. */
    app_home: {
      home_tab_enabled: true;
      messages_tab_enabled: true;
      messages_tab_read_only_enabled: false;
    };
    bot_user: { display_name: string; always_online: boolean };
    slash_commands: SlackSlashCommand[];
    shortcuts?: SlackShortcut[];
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    /** app_home_opened: herald publishes the Home tab when it is opened (adapters/slack/home.ts). */
    event_subscriptions: { bot_events: string[]; request_url?: string };
    interactivity: { is_enabled: true; request_url?: string };
    socket_mode_enabled: boolean;
    org_deploy_enabled: false;
    token_rotation_enabled: false;
  };
}

export interface SlackManifestOptions {
  /** HTTP mode: the events address (`https://<host>/slack/events`); absent: Socket Mode. */
  requestUrl?: string;
}

/**
 * commands: slash commands; chat:write: answers and posts; files:write: mp3s and charts through
 * files.uploadV2; channels:read and groups:read: /schedule add checks (conversations.info) that
 * herald is in the public or private channel it will post into, whether that channel is private,
 * and (conversations.members) that the member adding the schedule is in it; im:write: a direct
 * message to a schedule's creator when Slack refuses its channel (the schedule pauses); users:read:
 * Read aloud says a mentioned user's name (users.info), as channels:read lets it say a channel's.
 */
export const SLACK_BOT_SCOPES: readonly string[] = [
  'commands',
  'chat:write',
  'files:write',
  'channels:read',
  'groups:read',
  'im:write',
  'users:read',
];

/** Slack's limits for a shortcut: a name of 24 characters, a description of 150. */
const SHORTCUT_NAME_MAX = 24;
const SHORTCUT_DESCRIPTION_MAX = 150;

function shortcut(command: Command): SlackShortcut {
  const name = command.onMessage ?? command.name;
  if (name.length > SHORTCUT_NAME_MAX)
    throw new Error(`shortcut "${name}": over ${SHORTCUT_NAME_MAX} characters`);
  return {
    name,
    type: 'message',
    callback_id: command.name,
    description: command.description.slice(0, SHORTCUT_DESCRIPTION_MAX),
  };
}

/** `/weather <city> [units:metric|imperial]` → `<city> [units:metric|imperial]`. */
function hintOf(command: Command, prefix: string): string {
  return usageLine(command).slice(prefix.length).trim();
}

function slashCommand(entry: CommandRegistry['entries'][number], url: string | undefined): SlackSlashCommand {
  const name = `/${entry.name}`;
  let description: string;
  let hint: string;
  if (isGroup(entry)) {
    description = groupDescription(entry);
    hint = entry.subcommands.map((s) => hintOf(s.command, name)).join(' | ');
  } else {
    description = entry.description;
    hint = hintOf(entry, name);
  }
  return {
    command: name,
    description,
    ...(hint === '' ? {} : { usage_hint: hint }),
    // herald reads the text as typed; escaping would turn names and channels into ids.
    should_escape: false,
    ...(url === undefined ? {} : { url }),
  };
}

export function slackManifest(registry: CommandRegistry, opts: SlackManifestOptions = {}): SlackManifest {
  const url = opts.requestUrl;
  return {
    display_information: {
      name: 'herald',
      description: 'Weather, jobs, hosts, speech, email and scheduled reports',
    },
    features: {
      app_home: { home_tab_enabled: true, messages_tab_enabled: true, messages_tab_read_only_enabled: false },
      bot_user: { display_name: 'herald', always_online: true },
      slash_commands: registry.entries.map((entry) => slashCommand(entry, url)),
      ...(registry.messageCommands.length > 0 ? { shortcuts: registry.messageCommands.map(shortcut) } : {}),
    },
    oauth_config: { scopes: { bot: [...SLACK_BOT_SCOPES] } },
    settings: {
      event_subscriptions: {
        bot_events: ['app_home_opened'],
        ...(url === undefined ? {} : { request_url: url }),
      },
      // Buttons (/jobs' pages) arrive as interactivity.
      interactivity: { is_enabled: true, ...(url === undefined ? {} : { request_url: url }) },
      socket_mode_enabled: url === undefined,
      org_deploy_enabled: false,
      token_rotation_enabled: false,
    },
  };
}
