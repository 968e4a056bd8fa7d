export * from './load-config';
export * from './fields';
