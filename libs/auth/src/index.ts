export * from './principal';
export * from './identity';
export * from './roles';
export * from './base-access';
export * from './hmac-key';
export * from './base-ref';
export * from './contract-authorizer';
