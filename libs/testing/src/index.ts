export * from './backends';
export * from './database';
export * from './test-stack';
export * from './cluster';
export * from './openapi-tools';
export * from './factories';
export * from './entry';
