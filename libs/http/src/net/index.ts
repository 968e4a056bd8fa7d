export * from './ssrf-guard';
export * from './safe-agent';
export * from './address-class';
export * from './host-policy';
export * from './trusted-proxies';
