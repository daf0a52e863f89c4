// The Services bag handed to commands and jobs: a client per configured service, absent when
// its credentials are not set. The bag's type lives with the code that builds it
// (src/services/index.ts) and the service keys in the domain facts; core re-exports both, types only.
export type { ServiceClients, Services } from '../services/index.ts';
export { SERVICE_KEYS, type ServiceKey } from '../domain/services.ts';
