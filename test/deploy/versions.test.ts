/**
 * Every version the docs and manifests name as this tw16's — image tags, the protocol's hello,
 * the manifest examples — is package.json's, so a release cannot leave one behind (0.2.0 tags
 * stayed in the Kubernetes manifests after 0.3.0). Versions named as history ("before 0.3.0")
 * are not these patterns.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/programs.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const LOCK = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { version: string; packages: Record<string, { version?: string }> };

/** Files, and the patterns whose first group is a version of this tw16. */
const PLACES: [string, RegExp][] = [
  ['deploy/kubernetes/Dockerfile', /tw16:(\d+\.\d+\.\d+)/g],
  ['deploy/kubernetes/tw16-job.yaml', /tw16:(\d+\.\d+\.\d+)/g],
  ['deploy/kubernetes/tw16-merge.yaml', /tw16:(\d+\.\d+\.\d+)/g],
  ['README.md', /tw16:(\d+\.\d+\.\d+)/g],
  ['docs/protocol.md', /"tw16":\s*"(\d+\.\d+\.\d+)"/g],
  ['results/README.md', /"version":\s*"(\d+\.\d+\.\d+)"/g],
];

describe('the version named in docs and manifests', () => {
  it('is package.json\'s everywhere, and package-lock.json\'s', () => {
    let found = 0;
    for (const [file, pattern] of PLACES) {
      for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(pattern)) {
        found++;
        expect(`${file}: ${m[0]}`).toBe(`${file}: ${m[0].replace(m[1]!, VERSION)}`);
      }
    }
    expect(found).toBeGreaterThanOrEqual(7);
    expect([LOCK.version, LOCK.packages['']?.version]).toEqual([VERSION, VERSION]);
  });
});
