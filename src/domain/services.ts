// The eight services herald talks to (docs/SERVICES.md S1..S8), named once: the key of each client in the
// Services bag, of each ServiceError, of each sandbox route and of each configuration section.

export const SERVICE_KEYS = [
  'email',
  'analytics',
  'weather',
  'geocoding',
  'speech',
  'hostscan',
  'webhook',
  'jobSearch',
] as const;

export type ServiceKey = (typeof SERVICE_KEYS)[number];
