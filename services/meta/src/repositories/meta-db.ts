/** The meta service's own schema. */
export const META_SCHEMA = 'meta';
