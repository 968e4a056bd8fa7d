/** The hooks service's schema (its models' tables are `${HOOKS_SCHEMA}.<table>`). */
export const HOOKS_SCHEMA = 'hooks';
