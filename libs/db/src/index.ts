export * from './knex-factory';
export * from './migrations';
export * from './db-errors';
export * from './embedded-postgres';
export * from './model';
export * from './sources/source-registry';
export * from './ids';
export * from './prepared';
export { laneOf } from './connection-lane';
