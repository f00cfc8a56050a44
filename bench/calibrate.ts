/**
 * Calibration of every interval the summary reports: run small experiments under many seeds,
 * take as the truth of each quantity its pooled estimate over the *other* seeds (leave one
 * out), and count how often each seed's 95% interval covers it. Not part of `npm test`: it
 * plays about 1.2 million hands (a few minutes on 2 cores).
 *
 *   npx tsc -p . && node dist/bench/calibrate.js [SEEDS=40] [--workers K] [--keep DIR]
 *
 * Experiments (both p0): `four`, the four built-in bots under duplicate seating, 200 deals
 * (4,800 hands) a seed — random rarely wins, so its win %, self-draw share and tai/win are
 * the rare-event cases; `two`, greedy against defensive under rotate seating, 1,200 deals
 * (2,400 hands) a seed. Truths: points and paired differences from the pooled luck-adjusted
 * estimates (the most precise; the adjusted and raw pooled means are compared below, as a
 * check of unbiasedness), rates from pooled counts, the narrowing from pooled variances.
 * A pooled truth has its own error (1/(seeds − 1) of a seed's variance), which costs a
 * nominal 95% interval about half a point of coverage at 40 seeds.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateExperiment, type Experiment } from '../src/harness/experiment/experiment.js';
import { runExperiment } from '../src/harness/run/run.js';
import { t975, type Estimate } from '../src/harness/analysis/stats.js';
import type { ArmSummary, Summary } from '../src/harness/analysis/summary.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const workersArg = flag('--workers');
const keep = flag('--keep');
const seeds = Number(args[0] ?? 40);
const workers = workersArg === undefined ? undefined : Number(workersArg);

const EXPERIMENTS: readonly Record<string, unknown>[] = [
  { name: 'four', hands: 200, rules: 'p0', bots: ['greedy', 'defensive', 'value', 'random'], seating: 'duplicate' },
  { name: 'two', hands: 1200, rules: 'p0', bots: ['greedy', 'defensive'], seating: 'rotate' },
];

/** One interval and the key of the quantity it estimates. */
interface Item {
  readonly kind: string;
  readonly key: string;
  readonly e: Estimate;
  /** The quantity's numerator and denominator in this seed (pooled over the others for the truth). */
  readonly y: number;
  readonly n: number;
}

/** The intervals of one summary, by kind, with what pooling needs. */
function items(arm: ArmSummary): Item[] {
  const out: Item[] = [];
  let winsAll = 0;
  for (const b of arm.bots) winsAll += b.winRate.mean * b.hands;
  for (const b of arm.bots) {
    const wins = b.winRate.mean * b.hands;
    out.push({ kind: 'points/hand (raw)', key: b.bot, e: b.pointsPerHand, y: b.pointsPerHand.mean * b.hands, n: b.hands });
    if (b.pointsPerHandAdjusted) out.push({ kind: 'points/hand (luck-adjusted)', key: b.bot, e: b.pointsPerHandAdjusted, y: b.pointsPerHandAdjusted.mean * b.hands, n: b.hands });
    out.push({ kind: 'win %', key: b.bot, e: b.winRate, y: wins, n: b.hands });
    out.push({ kind: 'deal-in %', key: b.bot, e: b.dealInRate, y: b.dealInRate.mean * b.hands, n: b.hands });
    if (wins > 0) {
      out.push({ kind: 'self-draw % of wins', key: b.bot, e: b.selfDrawShare, y: b.selfDrawShare.mean * wins, n: wins });
      out.push({ kind: 'tai/win', key: b.bot, e: b.taiPerWin, y: b.taiPerWin.mean * wins, n: wins });
    } else {
      out.push({ kind: 'self-draw % of wins', key: b.bot, e: b.selfDrawShare, y: 0, n: 0 });
      out.push({ kind: 'tai/win', key: b.bot, e: b.taiPerWin, y: 0, n: 0 });
    }
  }
  for (const p of arm.paired) {
    const key = `${p.a} − ${p.b}`;
    out.push({ kind: 'paired difference (raw)', key, e: p.diff, y: p.diff.mean * p.deals, n: p.deals });
    if (p.diffAdjusted) out.push({ kind: 'paired difference (luck-adjusted)', key, e: p.diffAdjusted, y: p.diffAdjusted.mean * p.deals, n: p.deals });
    // The narrowing's truth from pooled variances: hand variance × deals / (deal variance × hands).
    const nh = (p.independentHalfWidth / t975(p.deals * 1e6)) ** 2; // s²_hand / n_hands (t at large df)
    const nd = p.diff.se ** 2; // s²_deal / deals
    out.push({ kind: 'narrowing vs independent hands', key, e: p.narrowing, y: nh, n: nd });
  }
  for (const [o, e] of Object.entries(arm.outcomes)) out.push({ kind: o === 'draw' ? 'draw % (table)' : 'outcome shares', key: o, e, y: e.mean * arm.hands, n: arm.hands });
  for (const p of arm.patterns) {
    out.push({ kind: 'pattern per 1,000 wins', key: p.pattern, e: p.per1000Wins, y: p.wins, n: winsAll });
    out.push({ kind: 'pattern per 1,000 hands', key: p.pattern, e: p.per1000Hands, y: p.wins, n: arm.hands });
  }
  return out;
}

/** The pooled truth of a quantity over the other seeds, on the estimate's scale. */
function truth(kind: string, others: readonly Item[]): number {
  let y = 0;
  let n = 0;
  for (const o of others) {
    y += o.y;
    n += o.n;
  }
  if (kind.startsWith('narrowing')) return Math.sqrt(y / n);
  if (kind.startsWith('pattern')) return n > 0 ? (1000 * y) / n : NaN;
  return n > 0 ? y / n : NaN;
}

async function runAll(): Promise<Map<string, Summary[]>> {
  const base = keep ?? mkdtempSync(join(tmpdir(), 'tw16-calibrate-'));
  const out = new Map<string, Summary[]>();
  try {
    for (const spec of EXPERIMENTS) {
      const list: Summary[] = [];
      const t0 = performance.now();
      let hands = 0;
      for (let i = 0; i < seeds; i++) {
        const e: Experiment = validateExperiment({ ...spec, seed: `calibrate-${spec.name}-${i + 1}` }, 'bench/calibrate', process.cwd());
        const dir = join(base, `${spec.name}-${i + 1}`);
        const r = await runExperiment({ experiment: e, outDir: dir, force: true, ...(workers !== undefined ? { workers } : {}) });
        if (r.status !== 'complete') throw new Error(`${spec.name} seed ${i + 1}: ${r.status}`);
        list.push(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary);
        hands += r.hands;
        if (!keep) rmSync(dir, { recursive: true, force: true });
      }
      process.stderr.write(`${spec.name}: ${seeds} seeds, ${hands.toLocaleString('en-US')} hands in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
      out.set(spec.name as string, list);
    }
  } finally {
    if (!keep) rmSync(base, { recursive: true, force: true });
  }
  return out;
}

interface Tally {
  covered: number;
  total: number;
  halfWidth: number;
  /** Per item key: covered, total. */
  readonly byKey: Map<string, [number, number]>;
}

const runs = await runAll();
const tallies = new Map<string, Tally>();
const unbiased: string[] = [];
for (const [name, summaries] of runs) {
  const perSeed = summaries.map((s) => items(s.arms[0]!));
  for (let i = 0; i < perSeed.length; i++) {
    for (const it of perSeed[i]!) {
      if (!Number.isFinite(it.e.mean) && it.n === 0) continue;
      const others = perSeed.flatMap((list, j) => (j === i ? [] : list.filter((o) => o.kind === it.kind && o.key === it.key)));
      // Points and paired differences: the truth is the pooled luck-adjusted estimate (same mean, more precise).
      const truthKind = it.kind.includes('(raw)') ? it.kind.replace('(raw)', '(luck-adjusted)') : it.kind;
      const pool = truthKind === it.kind ? others : perSeed.flatMap((list, j) => (j === i ? [] : list.filter((o) => o.kind === truthKind && o.key === it.key)));
      const t = truth(it.kind, pool.length > 0 ? pool : others);
      // A pattern never seen in the other seeds has no truth to cover.
      if (!Number.isFinite(t) || (it.kind.startsWith('pattern') && t === 0)) continue;
      const kind = `${it.kind}`;
      let tally = tallies.get(kind);
      if (!tally) tallies.set(kind, (tally = { covered: 0, total: 0, halfWidth: 0, byKey: new Map() }));
      const lo = Number.isFinite(it.e.lo) ? it.e.lo : -Infinity;
      const hi = Number.isFinite(it.e.hi) ? it.e.hi : Infinity;
      const ok = lo <= t && t <= hi ? 1 : 0;
      tally.covered += ok;
      tally.total++;
      tally.halfWidth += Number.isFinite(hi - lo) ? (hi - lo) / 2 : 0;
      const k = `${name}: ${it.key}`;
      const bk = tally.byKey.get(k) ?? [0, 0];
      tally.byKey.set(k, [bk[0] + ok, bk[1] + 1]);
    }
  }
  // Unbiasedness: pooled luck-adjusted against pooled raw, over all seeds (difference and its se across seeds).
  for (const kind of ['points/hand', 'paired difference']) {
    const keys = new Set(perSeed[0]!.filter((it) => it.kind === `${kind} (raw)`).map((it) => it.key));
    for (const key of keys) {
      const d = perSeed.map((list) => {
        const raw = list.find((it) => it.kind === `${kind} (raw)` && it.key === key);
        const adj = list.find((it) => it.kind === `${kind} (luck-adjusted)` && it.key === key);
        return raw && adj ? adj.e.mean - raw.e.mean : NaN;
      });
      const m = d.reduce((a, x) => a + x, 0) / d.length;
      const se = Math.sqrt(d.reduce((a, x) => a + (x - m) ** 2, 0) / (d.length - 1) / d.length);
      if (Number.isFinite(m)) unbiased.push(`${name} ${kind} ${key}: adjusted − raw = ${m.toFixed(4)} ± ${(1.96 * se).toFixed(4)} (z = ${(m / se).toFixed(2)})`);
    }
  }
}

const order = [
  'points/hand (raw)',
  'points/hand (luck-adjusted)',
  'paired difference (raw)',
  'paired difference (luck-adjusted)',
  'narrowing vs independent hands',
  'win %',
  'deal-in %',
  'self-draw % of wins',
  'tai/win',
  'draw % (table)',
  'outcome shares',
  'pattern per 1,000 wins',
  'pattern per 1,000 hands',
];
const lines = [`Coverage of 95% intervals over ${seeds} seeds per experiment (truth: pooled over the other seeds)`, '', '| interval | checked | coverage | lowest per quantity | mean half-width |', '|---|---:|---:|---|---:|'];
for (const kind of order) {
  const t = tallies.get(kind);
  if (!t) continue;
  let worst = '';
  let worstRate = 2;
  for (const [k, [c, n]] of t.byKey) {
    if (c / n < worstRate) {
      worstRate = c / n;
      worst = `${k} ${((100 * c) / n).toFixed(0)}%`;
    }
  }
  lines.push(`| ${kind} | ${t.total} | ${((100 * t.covered) / t.total).toFixed(1)}% | ${worst} | ${(t.halfWidth / t.total).toPrecision(3)} |`);
}
lines.push('', 'Unbiasedness of the luck adjustment (pooled over all seeds; z within ±2 expected 95% of the time):', ...unbiased.map((u) => `- ${u}`));
process.stdout.write(`${lines.join('\n')}\n`);
