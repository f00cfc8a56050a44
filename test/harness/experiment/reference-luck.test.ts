// Reference luck weights (tw16 env's per-step luck) and the script that fits them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LUCK_F, LUCK_FEATURES } from '../../../src/engine/index.js';
import { referenceLuckAccount, referenceLuckWeights } from '../../../src/harness/experiment/luck.js';
import { LUCK_WEIGHTS } from '../../../src/harness/experiment/luckweights.js';
import { getProfile, PROFILE_NAMES } from '../../../src/rules/index.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

describe('reference luck weights', () => {
  it('exist for every built-in profile, one per feature; a house rule gets p0’s', () => {
    for (const p of PROFILE_NAMES) expect(LUCK_WEIGHTS[p]?.weights.length, p).toBe(LUCK_F);
    const house = { ...getProfile('casual'), name: 'my-house' };
    expect([...referenceLuckWeights(house, { base: 1, perTai: 1 })!]).toEqual(LUCK_WEIGHTS.p0!.weights);
    expect([...referenceLuckWeights(getProfile('table'), { base: 1, perTai: 1 })!]).toEqual(LUCK_WEIGHTS.table!.weights);
  });

  it('scale with the typical payment at other stakes, except the features already in points', () => {
    const p0 = getProfile('p0');
    const T = LUCK_WEIGHTS.p0!.meanTai;
    const w = referenceLuckWeights(p0, { base: 5, perTai: 2 })!;
    LUCK_FEATURES.forEach((name, f) => {
      const fitted = LUCK_WEIGHTS.p0!.weights[f]!;
      expect(w[f], name).toBeCloseTo(name.includes('Points') ? fitted : (fitted * (5 + 2 * T)) / (1 + T), 12);
    });
    expect(LUCK_FEATURES.some((n) => n.includes('Points'))).toBe(true);
    expect(referenceLuckAccount(p0, { base: 1, perTai: 1 })!.weights).toBeDefined();
  });
});

describe('scripts/fit-luck.js', () => {
  const script = join(ROOT, 'dist/scripts/fit-luck.js');
  it.skipIf(!existsSync(script))('refuses bad arguments before fitting, writing nothing', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'tw16-fit-')), 'w.ts');
    for (const args of [['abc'], ['0'], ['5', 'nosuch'], ['5', '--out']]) {
      const r = spawnSync(process.execPath, [script, ...args, ...(args.includes('--out') ? [] : ['--out', out])], { encoding: 'utf8' });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^fit-luck: .+\nusage: /);
      expect(existsSync(out)).toBe(false);
    }
    const help = spawnSync(process.execPath, [script, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: /);
  });
});
