export * from './tracing';
export * from './logger';
export * from './metrics';
export * from './stored-context';
export * from './route-template';
export * from './access-log';
export * from './log-format';
