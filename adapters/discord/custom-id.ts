// Button custom_ids for Actions: the component state of src/core/component-state.ts at Discord's
// cap of 100 characters per custom_id.
// https://discord.com/developers/docs/components/reference#anatomy-of-a-component-custom-id
import {
  createComponentState,
  createLocalValues,
  inlineComponentId,
  storedComponentId,
  type ComponentOwners,
  type ComponentState,
  type ComponentTarget,
  type ComponentValues,
} from '../../src/core/component-state.ts';
import { DISCORD_LIMITS } from '../../src/domain/discord.ts';

export const CUSTOM_ID_MAX = DISCORD_LIMITS.customId;

/** The id alone, inline when it fits, for a target that has no owner (tests, fixtures). */
export function customIdFor(target: ComponentTarget): string {
  return inlineComponentId(target, CUSTOM_ID_MAX) ?? storedComponentId(target);
}

/** Discord's button targets in `values` (the shared store); in this process when none is given. */
export function createButtonTargets(
  values: ComponentValues = createLocalValues(),
  owners?: ComponentOwners,
): ComponentState {
  return createComponentState({ values, maxIdLength: CUSTOM_ID_MAX, ...(owners ? { owners } : {}) });
}
