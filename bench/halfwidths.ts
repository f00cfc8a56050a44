/**
 * What a seating design and the luck adjustment buy at equal hands: the 95% half-width of the
 * greedy − defensive difference in points per seat-hand, four bots (greedy, defensive, value,
 * random, p0), HANDS hands per run, under fixed (one seating a deal), rotate (4) and duplicate
 * (24) seating, raw and luck-adjusted, averaged over SEEDS runs each.
 *
 *   npx tsc -p . && node dist/bench/halfwidths.js [HANDS=12000] [SEEDS=8] [--workers K]
 *
 * The difference is the mean over deals of (greedy's mean − defensive's mean points per
 * seat-hand in the deal), t interval over deals, raw and luck-adjusted (weights cross-fitted on
 * the run) — what the summary's paired table reports for rotate and duplicate (summary.ts
 * `pairedEstimates`); for fixed seating (where the summary reports no paired table: each bot keeps
 * its seat and neighbours) the same estimators, as the lower bound of what one seating a deal can do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateExperiment } from '../src/harness/experiment/experiment.js';
import { readBatches, readMetadata } from '../src/harness/io/read.js';
import { runExperiment } from '../src/harness/run/run.js';
import { pairedEstimates } from '../src/harness/analysis/summary.js';

const args = process.argv.slice(2);
const wi = args.indexOf('--workers');
const workers = wi >= 0 ? Number(args.splice(wi, 2)[1]) : undefined;
const hands = Number(args[0] ?? 12000);
const seeds = Number(args[1] ?? 8);
const A = 'greedy';
const B = 'defensive';
const designs = [
  { seating: 'fixed', perDeal: 1 },
  { seating: 'rotate', perDeal: 4 },
  { seating: 'duplicate', perDeal: 24 },
] as const;

/** Half-width of an estimate's 95% interval. */
const half = (e: { lo: number; hi: number }): number => (e.hi - e.lo) / 2;

const base = mkdtempSync(join(tmpdir(), 'tw16-halfwidths-'));
const rows: string[] = [];
try {
  for (const design of designs) {
    let hwRaw = 0;
    let hwAdj = 0;
    let meanRaw = 0;
    let meanAdj = 0;
    const t0 = performance.now();
    for (let i = 0; i < seeds; i++) {
      const e = validateExperiment(
        { name: `hw-${design.seating}`, seed: `halfwidths-${design.seating}-${i + 1}`, hands: hands / design.perDeal, rules: 'p0', bots: ['greedy', 'defensive', 'value', 'random'], seating: design.seating, record: ['luck-features'] }, // the estimates below read the features back from hands.arrow
        'bench/halfwidths',
        process.cwd(),
      );
      const dir = join(base, `${design.seating}-${i}`);
      await runExperiment({ experiment: e, outDir: dir, force: true, ...(workers !== undefined ? { workers } : {}) });
      const path = join(dir, 'hands.arrow');
      const { raw, adjusted } = await pairedEstimates({ batches: () => readBatches(path) }, await readMetadata(path), [A, B]);
      hwRaw += half(raw);
      hwAdj += half(adjusted!);
      meanRaw += raw.mean;
      meanAdj += adjusted!.mean;
      rmSync(dir, { recursive: true, force: true });
    }
    const s = (performance.now() - t0) / 1000;
    rows.push(
      `| ${design.seating} | ${(hands / design.perDeal).toLocaleString('en-US')} × ${design.perDeal} | ±${(hwRaw / seeds).toFixed(3)} | ±${(hwAdj / seeds).toFixed(3)} | ${(hwRaw / hwAdj).toFixed(2)}× | ${(meanRaw / seeds).toFixed(3)} / ${(meanAdj / seeds).toFixed(3)} | ${s.toFixed(0)} s |`,
    );
    process.stderr.write(`${rows[rows.length - 1]}\n`);
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
process.stdout.write(
  [
    `${A} − ${B}, four bots, p0, ${hands.toLocaleString('en-US')} hands a run, mean 95% half-width over ${seeds} runs`,
    '',
    '| seating | deals × seatings | raw | luck-adjusted | narrower | mean difference raw / adjusted | time |',
    '|---|---|---:|---:|---:|---|---:|',
    ...rows,
  ].join('\n') + '\n',
);
