import { hooksCopy, hooksDeleteOfTables } from './hooks-copy';

export { hooksCopy, hooksDeleteOfTables } from './hooks-copy';

/** The hooks service's internal endpoints used by other services. */
export const hooksInternalEndpoints = { hooksCopy, hooksDeleteOfTables };
