import { existsSync } from 'node:fs';
import packageJson from '../../../package.json';

const PACKAGE_VERSION: string = packageJson.version;

/** The spec's base info fields (of the server: the contract admits those who may read the base). */
export function baseInfo() {
  return {
    Node: process.version, Arch: process.arch, Platform: process.platform,
    Docker: existsSync('/.dockerenv'), RootDB: 'pg', PackageVersion: PACKAGE_VERSION,
  };
}
