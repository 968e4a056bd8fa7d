export * from './tracing';
export * from './logger';
export * from './metrics';
export * from './stored-context';
