/**
 * The code version recorded in every output. Read from package.json once; bump the
 * package version whenever a change can move a simulation's output bytes.
 */
import { readFileSync } from 'node:fs';

function findVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'tw16' && pkg.version) return pkg.version;
    } catch {
      // try the next location (src/ under vitest, dist/src/ when built)
    }
  }
  return '0.0.0';
}

export const VERSION: string = findVersion();
