export * from './address-class';
export * from './host-policy';
export * from './trusted-proxies';
