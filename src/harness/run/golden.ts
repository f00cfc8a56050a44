/**
 * Golden outcomes: for each rule profile, the records of the first 2,000 hands of a fixed
 * experiment, kept in test/golden/<profile>/ with a digest of their rows. `npm test` replays
 * them and compares digests, so any change that moves a single tai or a single tile shows;
 * `npm run golden:update` regenerates them after an intended change and prints the
 * `tw16 diff` of old against new.
 *
 * The digest covers the rows only (column values in order), not the schema metadata, so a
 * version bump alone does not move it.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROFILE_NAMES } from '../../rules/index.js';
import type { Experiment } from '../experiment/experiment.js';
import { readBatches, toBatch } from '../io/read.js';
import { HAND_COLUMNS, WIN_COLUMNS } from '../results/records.js';
import { runExperiment } from './run.js';
import { readJsonFile, writeAtomic } from '../io/files.js';
import { diffResults } from '../analysis/diff.js';
import { MANIFEST } from '../results/resultdir.js';
import type { ColumnSpec } from '../io/columns.js';

/** Hands per golden run. */
export const GOLDEN_HANDS = 2000;

/** The golden experiment of a profile (or of any rules spec, e.g. a house-rule object). */
export function goldenExperiment(rules: string | Record<string, unknown>, name = typeof rules === 'string' ? rules : 'custom'): Experiment {
  return {
    name: `golden-${name}`,
    hypothesis: 'Golden outcomes: any change to these records must be intended.',
    seed: 'tw16-golden-1',
    deals: GOLDEN_HANDS,
    unit: 'hands',
    rules: [rules],
    stakes: { base: 1, perTai: 1 },
    bots: [{ name: 'greedy' }, { name: 'random' }, { name: 'defensive' }, { name: 'value' }],
    seating: 'fixed',
    // The luck features are records too: any change to their values must be intended.
    record: ['luck-features'],
    source: `golden experiment (${name})`,
    baseDir: process.cwd(),
  };
}

async function digestFile(path: string, specs: readonly ColumnSpec[], hash: ReturnType<typeof createHash>): Promise<void> {
  for await (const rb of readBatches(path)) {
    const b = toBatch(rb, specs);
    hash.update(`rows ${b.rows}\n`);
    for (const c of b.columns) {
      if ('offsets' in c) {
        hash.update(new Uint8Array(c.offsets.buffer, c.offsets.byteOffset, c.offsets.byteLength));
        hash.update('bytes' in c ? c.bytes : new Uint8Array(c.items.buffer, c.items.byteOffset, c.items.byteLength));
      } else {
        hash.update(new Uint8Array(c.buffer, c.byteOffset, c.byteLength));
      }
    }
  }
}

/** sha256 of the rows of a result directory's hands.arrow and wins.arrow. */
export async function recordsDigest(dir: string): Promise<string> {
  const hash = createHash('sha256');
  await digestFile(join(dir, 'hands.arrow'), HAND_COLUMNS, hash);
  await digestFile(join(dir, 'wins.arrow'), WIN_COLUMNS, hash);
  return hash.digest('hex');
}

/** Play the golden experiment of `rules` into `outDir` (in-process) and return its digest. */
export async function playGolden(rules: string | Record<string, unknown>, outDir: string, name?: string): Promise<string> {
  await runExperiment({ experiment: goldenExperiment(rules, name), outDir, workers: 0 });
  return recordsDigest(outDir);
}

/** The stored digests, profile → sha256. */
export function storedDigests(goldenDir: string): Record<string, string> {
  const f = join(goldenDir, 'digests.json');
  return existsSync(f) ? (readJsonFile(f) as Record<string, string>) : {};
}

/**
 * Regenerate every profile's golden records in `goldenDir`, printing (via `log`) what changed
 * against the stored ones. Returns the profiles whose records moved.
 */
export async function updateGolden(goldenDir: string, log: (s: string) => void, format: (d: Awaited<ReturnType<typeof diffResults>>) => string): Promise<string[]> {
  mkdirSync(goldenDir, { recursive: true });
  const old = storedDigests(goldenDir);
  const next: Record<string, string> = {};
  const moved: string[] = [];
  const tmp = mkdtempSync(join(tmpdir(), 'tw16-golden-'));
  try {
    for (const p of PROFILE_NAMES) {
      const out = join(tmp, p);
      next[p] = await playGolden(p, out);
      const stored = join(goldenDir, p);
      if (old[p] === next[p]) {
        log(`${p}: unchanged (${next[p]!.slice(0, 12)})`);
        continue;
      }
      moved.push(p);
      if (existsSync(join(stored, 'hands.arrow'))) {
        log(`${p}: records changed (${(old[p] ?? 'none').slice(0, 12)} → ${next[p]!.slice(0, 12)}):`);
        log(format(await diffResults(stored, out, 10)));
      } else {
        log(`${p}: new golden records (${next[p]!.slice(0, 12)})`);
      }
      rmSync(stored, { recursive: true, force: true });
      mkdirSync(stored, { recursive: true });
      for (const f of ['hands.arrow', 'wins.arrow', 'summary.json', MANIFEST]) cpSync(join(out, f), join(stored, f));
    }
    writeAtomic(join(goldenDir, 'digests.json'), `${JSON.stringify(next, null, 2)}\n`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return moved;
}
