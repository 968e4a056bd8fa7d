/** The realtime service's PostgreSQL schema (its feed log and tickets). */
export const REALTIME_SCHEMA = 'realtime';
