/**
 * Golden outcomes: the first 2,000 hands of a fixed experiment under every profile must
 * reproduce their stored records exactly. After an intended change: `npm run golden:update`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diffResults } from '../../src/harness/analysis/diff.js';
import { playGolden, storedDigests } from '../../src/harness/run/golden.js';
import { PROFILE_NAMES } from '../../src/rules/index.js';

const GOLDEN = fileURLToPath(new URL('.', import.meta.url));
const stored = storedDigests(GOLDEN);
const tmp = mkdtempSync(join(tmpdir(), 'tw16-golden-test-'));

describe('golden outcomes', () => {
  for (const p of PROFILE_NAMES) {
    it(`${p}: 2,000 hands reproduce their stored records (else: npm run golden:update, and review its diff)`, async () => {
      expect(stored[p], `no stored digest for ${p}`).toMatch(/^[0-9a-f]{64}$/);
      expect(await playGolden(p, join(tmp, p))).toBe(stored[p]);
    });
  }

  it('catches a deliberate one-tai change, and diff names the hands it moved', async () => {
    const out = join(tmp, 'p0-plus-one');
    const digest = await playGolden({ extends: 'p0', tai: { single_wait: 2 } }, out, 'p0-plus-one');
    expect(digest).not.toBe(stored.p0);
    const d = await diffResults(join(GOLDEN, 'p0'), out, 5);
    expect(d.identical).toBe(false);
    expect(d.hands.changed).toBeGreaterThan(0);
    expect(d.changedHands.length).toBeGreaterThan(0);
    expect(d.changedHands[0]!.replayA).toMatch(/^tw16 replay --seed tw16-golden-1 --hand \d+ /);
    expect(d.patterns.some((p) => p.pattern === 'single_wait')).toBe(true);
  });
});
