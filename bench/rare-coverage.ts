/**
 * Coverage of the proportion interval (`ClusterStat.proportion`, wilson-deff) by simulation, where
 * the truth is known exactly: clustered yes/no outcomes drawn from a beta-binomial model (each deal
 * has its own rate, drawn around p with intra-deal correlation rho; its m units are yes with that
 * rate), over a grid of deals k, units per deal m, true share p and rho, rare events included.
 * For each cell: the share of R intervals that hold p, and their median width. Pure arithmetic
 * (no games), seconds to a minute:
 *
 *   npx tsc -p . && node dist/bench/rare-coverage.js [--reps R] [--json FILE]
 *
 * The summary reports proportions (outcome shares, pattern rates per 1,000 hands and wins) this way;
 * bench/calibrate.ts checks them on real runs. This one reaches the corners a run rarely visits:
 * 2 events in 60 hands, none at all, 24 seat-hands a deal that all go the same way.
 */
import { writeFileSync } from 'node:fs';
import { makeRng, type Rng } from '../src/core/rng.js';
import { ClusterStat, type Estimate } from '../src/harness/analysis/stats.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const reps = Number(flag('--reps') ?? 2000);
const jsonOut = flag('--json');

/** A standard normal draw (Box–Muller, one of the pair). */
function normal(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
}

/** A Gamma(shape, 1) draw (Marsaglia–Tsang; shape < 1 by the u^(1/shape) boost). */
function gamma(shape: number, rng: Rng): number {
  if (shape < 1) return gamma(shape + 1, rng) * Math.pow(1 - rng(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(rng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - rng();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** A deal's rate: p itself at rho 0, else Beta(p(1 − rho)/rho, (1 − p)(1 − rho)/rho) (mean p, intra-deal correlation rho). */
function dealRate(p: number, rho: number, rng: Rng): number {
  if (rho === 0) return p;
  const s = (1 - rho) / rho;
  const a = gamma(p * s, rng);
  const b = gamma((1 - p) * s, rng);
  return a + b === 0 ? p : a / (a + b);
}

export interface Cell {
  readonly k: number;
  readonly m: number;
  readonly p: number;
  readonly rho: number;
  /** Share of intervals that hold p. */
  readonly coverage: number;
  /** Share that miss below (hi < p) and above (lo > p). */
  readonly missLow: number;
  readonly missHigh: number;
  /** Median of hi − lo. */
  readonly width: number;
  /** Mean number of deals holding an event. */
  readonly eventDeals: number;
}

/** One cell of the grid: R data sets, each `k` deals of `m` units. */
export function cell(k: number, m: number, p: number, rho: number, R: number, seed: string, interval: (c: ClusterStat) => Estimate): Cell {
  const rng = makeRng(seed);
  let cover = 0;
  let low = 0;
  let high = 0;
  let eventDeals = 0;
  const widths: number[] = [];
  for (let r = 0; r < R; r++) {
    const c = new ClusterStat();
    for (let d = 0; d < k; d++) {
      const q = dealRate(p, rho, rng);
      let y = 0;
      for (let u = 0; u < m; u++) if (rng() < q) y++;
      c.add(y, m);
    }
    eventDeals += c.clustersWithEvents;
    const e = interval(c);
    if (e.hi < p) low++;
    else if (e.lo > p) high++;
    else cover++;
    widths.push(e.hi - e.lo);
  }
  widths.sort((a, b) => a - b);
  return { k, m, p, rho, coverage: cover / R, missLow: low / R, missHigh: high / R, width: widths[R >> 1]!, eventDeals: eventDeals / R };
}

/** The grid: deals, units per deal (1: fixed seating's one seat a hand; 24: duplicate's seatings of a wall), share, correlation. */
export const GRID = {
  k: [20, 60, 200, 1000],
  m: [1, 4, 24],
  p: [0.0005, 0.002, 0.01, 0.03, 0.1, 0.3, 0.9],
  rho: [0, 0.1, 0.5],
} as const;

if (process.argv[1]?.endsWith('rare-coverage.js')) {
  const cells: Cell[] = [];
  for (const k of GRID.k) {
    for (const m of GRID.m) {
      for (const p of GRID.p) {
        for (const rho of m === 1 ? [0] : GRID.rho) {
          const c = cell(k, m, p, rho, reps, `rare-coverage/${k}/${m}/${p}/${rho}`, (s) => s.proportion());
          cells.push(c);
          process.stdout.write(`k ${String(k).padStart(4)}  m ${String(m).padStart(2)}  p ${String(p).padEnd(6)}  rho ${String(rho).padEnd(3)}  events in ${c.eventDeals.toFixed(1).padStart(6)} deals  coverage ${(100 * c.coverage).toFixed(1).padStart(5)}%  (below ${(100 * c.missLow).toFixed(1)}, above ${(100 * c.missHigh).toFixed(1)})  median width ${c.width.toPrecision(3)} (${(c.width / p).toFixed(2)}·p)\n`);
        }
      }
    }
  }
  const cov = cells.map((c) => c.coverage).sort((a, b) => a - b);
  const mean = cov.reduce((a, x) => a + x, 0) / cov.length;
  process.stdout.write(`\n${cells.length} cells × ${reps} data sets: coverage min ${(100 * cov[0]!).toFixed(1)}%, 5th percentile ${(100 * cov[Math.floor(cov.length / 20)]!).toFixed(1)}%, median ${(100 * cov[cov.length >> 1]!).toFixed(1)}%, mean ${(100 * mean).toFixed(1)}%; a cell's own error at ${reps} reps: ±${(100 * 1.96 * Math.sqrt(0.95 * 0.05 / reps)).toFixed(1)} points\n`);
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ reps, cells }, null, 1));
}
