/**
 * The code version recorded in every output. Read from package.json once; bump the
 * package version whenever a change can move a simulation's output bytes.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This package's package.json: its path and contents (src/ under vitest, dist/src/ when built). */
function findPackage(): { path: string; version: string } | undefined {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const url = new URL(rel, import.meta.url);
      const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'tw16' && pkg.version) return { path: fileURLToPath(url), version: pkg.version };
    } catch {
      // try the next location
    }
  }
  return undefined;
}

const PKG = findPackage();

export const VERSION: string = PKG?.version ?? '0.0.0';

/** This package's root directory (where package.json, bin/, bots/ and experiments/ are). */
export const PACKAGE_ROOT: string = PKG ? dirname(PKG.path) : process.cwd();
