/**
 * A resume continues the luck's sums from the checkpoint's sums file (run-state.json `luck`), not
 * from the journals' rows: interrupted at several points (before the first look of a stop rule,
 * between looks, one job before the end), in this thread or with workers, the run resumes to the
 * bytes of the uninterrupted run, and no journal row reaches the luck feed again.
 * Damaged sums files and shard sidecars are in faults.test.ts and merge.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LuckFitFeed } from '../../../src/harness/analysis/summary.js';
import { decodeSums } from '../../../src/harness/analysis/sumsfile.js';
import { loadExperiment, validateExperiment, type Experiment } from '../../../src/harness/experiment/experiment.js';
import { isCheckpointSums, readRunState } from '../../../src/harness/results/runstate.js';
import { runExperiment } from '../../../src/harness/run/run.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FILES = ['hands.arrow', 'manifest.json', 'summary.json', 'wins.arrow'];
const base = mkdtempSync(join(tmpdir(), 'tw16-resume-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const small = loadExperiment(join(ROOT, 'test/fixtures/experiments/small.json'));
// Looks at 4, 8, 16, 32 and 48 deals (adaptive.test.ts): it decides at the fourth.
const stop = validateExperiment({ name: 'stop', seed: 'adaptive-stop-1', hands: 48, rules: 'p0', bots: ['greedy', 'defensive'], seating: 'duplicate', stop: { compare: ['greedy', 'defensive'], delta: 1.5, first: 4 } }, 'stop.json', ROOT);

async function reference(e: Experiment, name: string): Promise<string> {
  const out = join(base, name);
  expect((await runExperiment({ experiment: e, outDir: out, workers: 0, dealsPerJob: 2 })).status).toBe('complete');
  return out;
}

/** Run `e` into `out`, stopped (as Ctrl-C does) once `after` deals are written. */
async function interrupted(e: Experiment, out: string, after: number, workers: number): Promise<void> {
  const ac = new AbortController();
  const r = await runExperiment({ experiment: e, outDir: out, workers, dealsPerJob: 2, signal: ac.signal, onProgress: (p) => p.dealsDone >= after && ac.abort() });
  expect(r.status).toBe('interrupted');
}

describe('--resume restores the luck sums from the checkpoint', () => {
  const refs: Record<string, string> = {};
  beforeAll(async () => {
    refs.small = await reference(small, 'small-ref');
    refs.stop = await reference(stop, 'stop-ref');
  }, 120_000);

  const cases: [string, Experiment, number, number][] = [
    ['small, after the first job, in this thread', small, 2, 0],
    ['small, half way, with workers', small, 60, 2],
    ['small, one job before the end, in this thread', small, 118, 0],
    ['a stop rule, before its first look, with workers', stop, 2, 2],
    ['a stop rule, between its second and third looks, in this thread', stop, 10, 0],
  ];
  for (const [what, e, after, workers] of cases) {
    it(what, async () => {
      const ref = refs[e === small ? 'small' : 'stop']!;
      const out = join(base, what.replace(/\W+/g, '-'));
      await interrupted(e, out, after, workers);
      // The state names one sums file, the only one there, holding exactly the deals it records done.
      const state = readRunState(out);
      const cp = state.checkpoint;
      expect(cp.dealsDone).toBeGreaterThanOrEqual(after);
      expect(readdirSync(out).filter(isCheckpointSums)).toEqual([cp.luck!.file]);
      expect(decodeSums(readFileSync(join(out, cp.luck!.file)), 'x').deals).toEqual({ first: 0, end: cp.dealsDone });

      // The resume: every row the feed is given is a row played now, none of the journal's.
      const add = vi.spyOn(LuckFitFeed.prototype, 'add');
      const addRows = vi.spyOn(LuckFitFeed.prototype, 'addRows');
      const r = await runExperiment({ experiment: e, outDir: out, resume: true, workers, dealsPerJob: 2 });
      expect(r.status).toBe('complete');
      const fed = add.mock.calls.reduce((n, [b]) => n + b.rows, 0);
      expect(addRows).toHaveBeenCalledTimes(add.mock.calls.length); // no rows but through add (a file read back would come through addRows alone)
      const hands = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).files.find((f: { name: string }) => f.name === 'hands.arrow').bytes;
      expect(hands(out)).toBe(hands(ref));
      if (workers > 0) expect(fed).toBe(0); // the workers' jobs come with their sums
      else expect(fed).toBe(r.hands);
      expect(readdirSync(out).sort()).toEqual(FILES);
      for (const f of FILES) expect(readFileSync(join(out, f)).equals(readFileSync(join(ref, f))), f).toBe(true);
    }, 120_000);
  }
});
