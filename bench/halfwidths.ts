/**
 * What a seating design and the luck adjustment buy at equal hands: the 95% half-width of the
 * greedy − defensive difference in points per seat-hand, four bots (greedy, defensive, value,
 * random, p0), HANDS hands per run, under fixed (one seating a deal), rotate (4) and duplicate
 * (24) seating, raw and luck-adjusted, averaged over SEEDS runs each.
 *
 *   npx tsc -p . && node dist/bench/halfwidths.js [HANDS=12000] [SEEDS=8] [--workers K]
 *
 * The difference is the mean over deals of (greedy's mean − defensive's mean points per
 * seat-hand in the deal), t interval over deals — what the summary's paired table reports for
 * rotate and duplicate; for fixed seating (where the summary reports no paired table: each bot
 * keeps its seat and neighbours) the same per-deal estimator, as the lower bound of what one
 * seating a deal can do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateExperiment } from '../src/harness/experiment/experiment.js';
import { readBatches, utf8Values } from '../src/harness/io/read.js';
import { runExperiment } from '../src/harness/run/run.js';
import { MeanStat, t975 } from '../src/harness/analysis/stats.js';

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

/** Per-deal differences of A − B (raw and adjusted) from a run's hands.arrow. */
async function perDeal(path: string): Promise<{ raw: MeanStat; adj: MeanStat }> {
  const raw = new MeanStat();
  const adj = new MeanStat();
  let deal = -1;
  const acc = { ya: 0, na: 0, yb: 0, nb: 0, la: 0, lb: 0 };
  const close = () => {
    if (deal >= 0 && acc.na > 0 && acc.nb > 0) {
      raw.add(acc.ya / acc.na - acc.yb / acc.nb);
      adj.add((acc.ya - acc.la) / acc.na - (acc.yb - acc.lb) / acc.nb);
    }
    Object.assign(acc, { ya: 0, na: 0, yb: 0, nb: 0, la: 0, lb: 0 });
  };
  for await (const rb of readBatches(path)) {
    const d = rb.getChild('deal')!.toArray() as Uint32Array;
    const bots = [0, 1, 2, 3].map((s) => utf8Values(rb, `bot_${s}`));
    const delta = [0, 1, 2, 3].map((s) => rb.getChild(`delta_${s}`)!.toArray() as Int32Array);
    const luck = [0, 1, 2, 3].map((s) => rb.getChild(`luck_${s}`)!.toArray() as Float32Array);
    for (let i = 0; i < rb.numRows; i++) {
      if (d[i] !== deal) {
        close();
        deal = d[i]!;
      }
      for (let s = 0; s < 4; s++) {
        const who = bots[s]![i];
        if (who === A) {
          acc.ya += delta[s]![i]!;
          acc.la += luck[s]![i]!;
          acc.na++;
        } else if (who === B) {
          acc.yb += delta[s]![i]!;
          acc.lb += luck[s]![i]!;
          acc.nb++;
        }
      }
    }
  }
  close();
  return { raw, adj };
}

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
        { name: `hw-${design.seating}`, seed: `halfwidths-${design.seating}-${i + 1}`, hands: hands / design.perDeal, rules: 'p0', bots: ['greedy', 'defensive', 'value', 'random'], seating: design.seating },
        'bench/halfwidths',
        process.cwd(),
      );
      const dir = join(base, `${design.seating}-${i}`);
      await runExperiment({ experiment: e, outDir: dir, force: true, ...(workers !== undefined ? { workers } : {}) });
      const { raw, adj } = await perDeal(join(dir, 'hands.arrow'));
      hwRaw += t975(raw.count - 1) * raw.se;
      hwAdj += t975(adj.count - 1) * adj.se;
      meanRaw += raw.mean;
      meanAdj += adj.mean;
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
