// Whether a scheduled post may carry simulated data: the sandbox's made-up answers must never reach
// a channel people read as real. Decided at add time and again at every run.
import type { DispatcherOptions } from '../core/dispatch-contract.ts';
import type { Reply } from '../core/reply.ts';
import type { ServiceKey } from '../domain/services.ts';
import { SERVICE_VARIABLES } from '../config/index.ts';
import type { Said } from '../errors.ts';
import { formatList } from '../format.ts';
import type { ServiceMode, ServicePlan } from '../sandbox/resolve.ts';

/** Which services are simulated, and SCHEDULE_ALLOW_SIMULATED. */
export interface SimulatedPolicy {
  plan: Pick<ServicePlan, 'modes'>;
  allow: boolean;
}

type SimulatedDecision = { kind: 'ok' } | { kind: 'refuse'; said: Said } | { kind: 'footer'; footer: string };

/** `default` follows the webhook service (disabled when nothing configures it); any other destination is real. */
export function destinationModeOf(destination: string, plan: Pick<ServicePlan, 'modes'>): ServiceMode {
  return destination === 'default' ? plan.modes.webhook : 'real';
}

/** The services among `needs` that the sandbox answers for (the webhook itself is the destination). */
function simulatedNeeds(needs: readonly ServiceKey[], plan: Pick<ServicePlan, 'modes'>): ServiceKey[] {
  return needs.filter((key) => key !== 'webhook' && plan.modes[key] === 'simulated');
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
  const variables = simulated.map((key) => SERVICE_VARIABLES[key]);
  return {
    kind: 'refuse',
    said: (t, locale) => {
      const values = {
        services: formatList(simulated, 'and', locale),
        variables: formatList(variables, 'and', locale),
        destination,
      };
      return destination.startsWith('channel:')
        ? t('scheduleRefusals:simulated.channel', values)
        : t('scheduleRefusals:simulated.destination', values);
    },
  };
}

/** The scheduled post's footer on an answer a whole channel sees, when a service it used is simulated. */
export function markSimulatedAnswer(
  plan: Pick<ServicePlan, 'modes'>,
): NonNullable<DispatcherOptions['markReply']> {
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
