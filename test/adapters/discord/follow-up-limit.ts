// Discord's cap on follow-up messages, for the fake to refuse what Discord refuses. Create Followup
// Message: "Apps are limited to 5 followup messages per interaction if it was initiated from a
// user-installed app and isn't installed in the server (meaning the authorizing integration owners
// object only contains USER_INSTALL)"
// (https://discord.com/developers/docs/interactions/receiving-and-responding#create-followup-message).
// Past it Discord answers JSON error code 40094, "This interaction has hit the maximum number of
// follow up messages" (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes),
// with 400 as for its other request errors. follow-ups.test.ts sends the 6th and sees it refused.
import { HttpResponse } from 'msw';

/** The follow-ups Discord takes for an interaction only a user's install authorised. */
const USER_INSTALL_FOLLOW_UPS = 5;

/**
 * The tokens of interactions only a user's install authorised. Discord issued each token with its
 * interaction, so it knows; here the builders and the gateway's dispatch tell it (noteInteraction).
 */
const userInstallTokens = new Set<string>();

/**
 * Notes who authorised `interaction`: a user's install alone when its `authorizing_integration_owners`
 * has USER_INSTALL ("1") and not GUILD_INSTALL ("0").
 */
export function noteInteraction(interaction: { token?: unknown; authorizing_integration_owners?: unknown }) {
  const owners = (interaction.authorizing_integration_owners ?? {}) as Record<string, unknown>;
  if (typeof interaction.token === 'string' && owners['1'] !== undefined && owners['0'] === undefined)
    userInstallTokens.add(interaction.token);
}

export interface FollowUpLimit {
  /** Follow-ups refused past the cap. */
  readonly refused: number;
  /** A follow-up with `token`: Discord's refusal past the cap, else undefined (and it is counted). */
  take(token: string): Response | undefined;
}

export function createFollowUpLimit(): FollowUpLimit {
  const sent = new Map<string, number>();
  let refused = 0;
  return {
    get refused() {
      return refused;
    },
    take(token) {
      if (!userInstallTokens.has(token)) return undefined;
      const count = sent.get(token) ?? 0;
      if (count < USER_INSTALL_FOLLOW_UPS) {
        sent.set(token, count + 1);
        return undefined;
      }
      refused += 1;
      return HttpResponse.json(
        { message: 'This interaction has hit the maximum number of follow up messages', code: 40094 },
        { status: 400 },
      );
    },
  };
}
