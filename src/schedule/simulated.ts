// Whether a scheduled post may carry simulated data: made-up answers from the built-in sandbox must
// never reach a channel people read as if they were real. Only the services the command uses
// count, and only a real destination is guarded: in the console or sandbox everything simulated
// stays allowed. One decision, made at add time and again at every run.
import type { Reply } from '../core/reply.ts';
import type { ServiceKey } from '../domain/services.ts';
import { SERVICE_VARIABLES } from '../config/index.ts';
import type { ServicePlan } from '../sandbox/resolve.ts';

/** What the guard is given: which services are simulated, and SCHEDULE_ALLOW_SIMULATED. */
export interface SimulatedPolicy {
  plan: Pick<ServicePlan, 'modes'>;
  allow: boolean;
}

type SimulatedDecision =
  { kind: 'ok' } | { kind: 'refuse'; message: string } | { kind: 'footer'; footer: string };

/**
 * What a destination is, for the guard, lists and the start-up report: `default` follows the
 * webhook service (real, the sandbox's simulated one, or disabled when nothing configures it, as on
 * a Slack-only set-up); every other destination (a chat channel, a named webhook) is real.
 */
export function destinationModeOf(
  destination: string,
  plan: Pick<ServicePlan, 'modes'>,
): 'real' | 'simulated' | 'disabled' {
  return destination === 'default' ? plan.modes.webhook : 'real';
}

/** The services among `needs` that the sandbox answers for (the webhook itself is the destination). */
function simulatedNeeds(needs: readonly ServiceKey[], plan: Pick<ServicePlan, 'modes'>): ServiceKey[] {
  return needs.filter((key) => key !== 'webhook' && plan.modes[key] === 'simulated');
}

function words(keys: readonly string[]): string {
  if (keys.length <= 1) return keys.join('');
  return `${keys.slice(0, -1).join(', ')} and ${keys.at(-1)}`;
}

function simulatedFooter(keys: readonly ServiceKey[]): string {
  return `Simulated data (built-in sandbox): ${keys.join(', ')}.`;
}

/** Refuse, mark with a footer or let through a post of `needs`' data to `destination`. */
export function decideSimulated(
  needs: readonly ServiceKey[],
  plan: Pick<ServicePlan, 'modes'>,
  destination: string,
  allowSimulated: boolean,
): SimulatedDecision {
  const simulated = simulatedNeeds(needs, plan);
  if (simulated.length === 0 || destinationModeOf(destination, plan) !== 'real') return { kind: 'ok' };
  if (allowSimulated) return { kind: 'footer', footer: simulatedFooter(simulated) };
  const where = destination.startsWith('channel:')
    ? 'a real channel'
    : `the real destination "${destination}"`;
  return {
    kind: 'refuse',
    message:
      `This schedule would post simulated ${words(simulated)} data to ${where}; ` +
      `configure ${words(simulated.map((key) => SERVICE_VARIABLES[key]))}, ` +
      'or set SCHEDULE_ALLOW_SIMULATED=true to post it marked as simulated.',
  };
}

/**
 * The marker for an answer a whole channel sees (not the console's, not one only its asker sees)
 * when a service the run used is simulated (speak:yes's speech too): the same footer as a scheduled
 * post's.
 */
export function markSimulatedAnswer(
  plan: Pick<ServicePlan, 'modes'>,
): (
  reply: Reply,
  command: { services: readonly ServiceKey[]; ephemeral?: boolean },
  actor: { platform: string },
) => Reply {
  return (reply, command, actor) => {
    if (actor.platform === 'console' || reply.ephemeral === true || command.ephemeral === true) return reply;
    const simulated = simulatedNeeds(command.services, plan);
    return simulated.length === 0 ? reply : withFooter(reply, simulatedFooter(simulated));
  };
}

/** The reply with `footer` as its last visible line: on each embed's footer, else on its text. */
export function withFooter(reply: Reply, footer: string): Reply {
  const embeds = reply.embeds?.map((e) => ({ ...e, footer: e.footer ? `${e.footer}\n${footer}` : footer }));
  return {
    ...reply,
    text: reply.text ? `${reply.text}\n\n${footer}` : footer,
    ...(embeds && embeds.length > 0 ? { embeds } : {}),
  };
}
