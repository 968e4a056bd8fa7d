export * from './ssrf-guard';
export * from './safe-agent';
