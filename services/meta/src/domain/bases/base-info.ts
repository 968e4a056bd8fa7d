import { existsSync } from 'node:fs';
import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../../ports';
import { requireBase } from '../access';
import packageJson from '../../../package.json';

const PACKAGE_VERSION: string = packageJson.version;

/** The spec's base info fields. */
export async function baseInfo(ports: MetaPorts, principal: Principal, baseId: string) {
  await requireBase(ports, principal, baseId, 'base.read');
  return {
    Node: process.version, Arch: process.arch, Platform: process.platform,
    Docker: existsSync('/.dockerenv'), RootDB: 'pg', PackageVersion: PACKAGE_VERSION,
  };
}
