/**
 * Calibration by simulation (docs/calibration.md): how often each 95% interval the summary reports
 * covers the truth, what the luck adjustment buys for every bot and pair, how often a league's rating
 * intervals cover, the stop rule's error rates, and the deals it saves. Not part of `npm test`:
 * parts run for minutes to hours on 2 cores.
 *
 *   npx tsc -p . && node dist/bench/calibrate.js [coverage|league|stop|savings …] [--seeds S] [--reps R] [--from R0]
 *       [--profiles p0,house,…] [--looks 100,200,…] [--delta D] [--workers K] [--json FILE]
 *
 * - `coverage`: under every profile (p0, casual, table, full, flowers) and a house rule extending
 *   casual (`{"extends": "casual", "windRounds": 4}`), two experiments per seed: `four`, the four
 *   built-in bots (random among them) under duplicate seating, 200 deals (4,800 hands), and `two`,
 *   greedy against random under duplicate seating, 400 deals (2,400 hands). The truth of each
 *   quantity is its pooled estimate over the *other* seeds (leave one out: points and differences
 *   from the pooled luck-adjusted means, rates from pooled counts); a pooled truth has its own error
 *   (1/(S − 1) of a seed's variance), which costs a nominal 95% interval about half a point of
 *   coverage at 40 seeds. Also: the adjusted/raw half-width ratio of every bot and pair (the
 *   narrowing table), and a count of adjusted intervals wider than raw and of zero-width intervals.
 * - `league`: a 6-bot league (greedy, defensive, value, random, greedy entered again as greedy-2,
 *   and the outside module bot experiments/bots/loner.mjs), p0, 150 deals (10 cycles of the
 *   15-table design, 3,600 hands) a seed: coverage of the rating and pair intervals, raw and adjusted.
 * - `stop`: the stop rule's error rates on a difference known exactly: greedy against a copy of itself
 *   (greedy-2) under fixed seating, A B A B (the dealer rotates, so the copies are equal in
 *   expectation but their hands differ), p0, R repetitions of a run as long as the last look, the rule
 *   applied at its looks (`--looks`, default 100, 200, …, 3,200 deals) exactly as a run applies it;
 *   "a pair at exactly delta" (`--delta`, default 0.2) is the same data shifted by delta (the estimate
 *   moves by delta, its standard error not at all). Counts a_better/b_better (at most alpha when
 *   equal; also with the efficacy boundary alone, no within_delta stopping early) and within_delta at
 *   delta (at most beta). Also the copies under duplicate seating, with `stop` in the experiment
 *   (their difference is exactly 0).
 * - `savings`: `stop` runs of a clear pair (greedy − random), a close pair (greedy − defensive) and a
 *   closer one (defensive − value), delta 0.1, duplicate seating, at most 4,000 deals: deals played and
 *   verdicts, against the fixed-length run of the same power: n = ((z₀.₉₇₅ + z₀.₉₅)·σ/delta)² deals, σ
 *   the per-deal standard deviation of the adjusted difference (from the runs' last looks).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateExperiment, type Experiment } from '../src/harness/experiment/experiment.js';
import { readBatches, readMetadata } from '../src/harness/io/read.js';
import { runExperiment } from '../src/harness/run/run.js';
import { t975, type Estimate } from '../src/harness/analysis/stats.js';
import { pairedEstimates, type ArmSummary, type Summary } from '../src/harness/analysis/summary.js';
import { decide, normalQuantile, stopDesign, type Verdict } from '../src/harness/analysis/sequential.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const workersArg = flag('--workers');
const jsonOut = flag('--json');
const seeds = Number(flag('--seeds') ?? 40);
const reps = Number(flag('--reps') ?? 200);
/** The stop part's first repetition (seeds calibrate-stop-<from+1> on): more repetitions add to an earlier run's. */
const fromRep = Number(flag('--from') ?? 0);
/** The stop part's looks (deals) and delta. */
const stopLooksArg = (flag('--looks') ?? '100,200,400,800,1600,3200').split(',').map(Number);
const stopDelta = Number(flag('--delta') ?? 0.2);
/** The coverage part's profiles (names of PROFILES); all by default. */
const onlyProfiles = flag('--profiles')?.split(',');
const workers = workersArg === undefined ? undefined : Number(workersArg);
const parts = args.length > 0 ? args : ['coverage', 'league', 'stop', 'savings'];
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const base = mkdtempSync(join(tmpdir(), 'tw16-calibrate-'));
const results: Record<string, unknown> = {};
const out: string[] = [];
const say = (s: string): void => {
  out.push(s);
  process.stdout.write(`${s}\n`);
};
const note = (s: string): void => void process.stderr.write(`${s}\n`);

/** Run one experiment into a fresh directory; its summary, and the directory (removed by `done`). */
async function run(spec: Record<string, unknown>, name: string): Promise<{ s: Summary; dir: string; hands: number }> {
  const e: Experiment = validateExperiment(spec, `bench/calibrate (${name})`, join(ROOT, 'experiments'));
  const dir = join(base, name);
  const r = await runExperiment({ experiment: e, outDir: dir, force: true, ...(workers !== undefined ? { workers } : {}) });
  if (r.status !== 'complete') throw new Error(`${name}: ${r.status} ${r.error?.message ?? ''}`);
  return { s: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary, dir, hands: r.hands };
}
const done = (dir: string): void => rmSync(dir, { recursive: true, force: true });

const pct = (c: number, n: number): string => `${((100 * c) / n).toFixed(1)}%`;
const half = (e: Estimate | null | undefined): number => (e && Number.isFinite(e.hi) ? (e.hi - e.lo) / 2 : NaN);

// ---------------------------------------------------------------------------------------------
// Coverage of every interval kind, and the narrowing of every bot and pair.

const PROFILES: readonly [string, string | Record<string, unknown>][] = [
  ['p0', 'p0'],
  ['casual', 'casual'],
  ['table', 'table'],
  ['full', 'full'],
  ['flowers', 'flowers'],
  ['house', { extends: 'casual', windRounds: 4 }],
];
const LINEUPS = [
  { name: 'four', hands: 200, bots: ['greedy', 'defensive', 'value', 'random'] },
  { name: 'two', hands: 400, bots: ['greedy', 'random'] },
] as const;

/** One interval and what pooling its truth needs. */
interface Item {
  readonly kind: string;
  readonly key: string;
  readonly e: Estimate;
  readonly y: number;
  readonly n: number;
}

function items(arm: ArmSummary): Item[] {
  const list: Item[] = [];
  let winsAll = 0;
  for (const b of arm.bots) winsAll += b.winRate.mean * b.hands;
  for (const b of arm.bots) {
    const wins = b.winRate.mean * b.hands;
    list.push({ kind: 'points/hand (raw)', key: b.bot, e: b.pointsPerHand, y: b.pointsPerHand.mean * b.hands, n: b.hands });
    if (b.pointsPerHandAdjusted) list.push({ kind: 'points/hand (luck-adjusted)', key: b.bot, e: b.pointsPerHandAdjusted, y: b.pointsPerHandAdjusted.mean * b.hands, n: b.hands });
    list.push({ kind: 'win %', key: b.bot, e: b.winRate, y: wins, n: b.hands });
    list.push({ kind: 'deal-in %', key: b.bot, e: b.dealInRate, y: b.dealInRate.mean * b.hands, n: b.hands });
    list.push({ kind: 'self-draw % of wins', key: b.bot, e: b.selfDrawShare, y: wins > 0 ? b.selfDrawShare.mean * wins : 0, n: wins });
    list.push({ kind: 'tai/win', key: b.bot, e: b.taiPerWin, y: wins > 0 ? b.taiPerWin.mean * wins : 0, n: wins });
  }
  for (const p of arm.paired) {
    const key = `${p.a} − ${p.b}`;
    list.push({ kind: 'paired difference (raw)', key, e: p.diff, y: p.diff.mean * p.deals, n: p.deals });
    if (p.diffAdjusted) list.push({ kind: 'paired difference (luck-adjusted)', key, e: p.diffAdjusted, y: p.diffAdjusted.mean * p.deals, n: p.deals });
    const nh = (p.independentHalfWidth / t975(p.deals * 1e6)) ** 2;
    list.push({ kind: 'narrowing vs independent hands', key, e: p.narrowing, y: nh, n: p.diff.se ** 2 });
  }
  for (const [o, e] of Object.entries(arm.outcomes)) list.push({ kind: o === 'draw' ? 'draw % (table)' : 'outcome shares', key: o, e, y: e.mean * arm.hands, n: arm.hands });
  for (const p of arm.patterns) {
    list.push({ kind: 'pattern per 1,000 wins', key: p.pattern, e: p.per1000Wins, y: p.wins, n: winsAll });
    list.push({ kind: 'pattern per 1,000 hands', key: p.pattern, e: p.per1000Hands, y: p.wins, n: arm.hands });
  }
  return list;
}

function truthOf(kind: string, others: readonly Item[]): number {
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

interface Tally {
  covered: number;
  total: number;
  /** Quantities whose value never varies (e.g. tai/win in casual, always 0): any interval holding it covers. */
  constant: number;
  readonly byKey: Map<string, [number, number]>;
}
/** Shares (rates, outcomes, patterns) seen fewer than 30 times either way: the exact interval's regime (stats.ts `proportion`), tallied again together. */
const RARE = 'shares seen < 30 times (either way)';
const SHARE_KINDS = new Set(['win %', 'deal-in %', 'self-draw % of wins', 'draw % (table)', 'outcome shares', 'pattern per 1,000 wins', 'pattern per 1,000 hands']);

const ORDER = [
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
  RARE,
  'league rating (raw)',
  'league rating (luck-adjusted)',
  'league pair (raw)',
  'league pair (luck-adjusted)',
];

/** Coverage of each seed's items against the pooled truth of the other seeds, into `tallies`. */
function tally(group: string, perSeed: readonly Item[][], tallies: Map<string, Tally>): void {
  for (let i = 0; i < perSeed.length; i++) {
    for (const it of perSeed[i]!) {
      if (!Number.isFinite(it.e.mean) && it.n === 0) continue;
      const truthKind = it.kind.includes('(raw)') ? it.kind.replace('(raw)', '(luck-adjusted)') : it.kind;
      const pool = perSeed.flatMap((list, j) => (j === i ? [] : list.filter((o) => o.kind === truthKind && o.key === it.key)));
      const others = pool.length > 0 ? pool : perSeed.flatMap((list, j) => (j === i ? [] : list.filter((o) => o.kind === it.kind && o.key === it.key)));
      const t = truthOf(it.kind, others);
      if (!Number.isFinite(t) || (it.kind.startsWith('pattern') && t === 0)) continue;
      let tl = tallies.get(it.kind);
      if (!tl) tallies.set(it.kind, (tl = { covered: 0, total: 0, constant: 0, byKey: new Map() }));
      // A quantity that is the same in every seed (tai/win in casual: always 0) covers trivially: counted apart.
      const all = [it, ...others].map((o) => o.e.mean);
      if (all.every((m) => m === all[0]) && it.e.se < 1e-3 * Math.max(1, Math.abs(t))) {
        tl.constant++;
        continue;
      }
      const lo = Number.isFinite(it.e.lo) ? it.e.lo : -Infinity;
      const hi = Number.isFinite(it.e.hi) ? it.e.hi : Infinity;
      const ok = lo <= t && t <= hi ? 1 : 0;
      tl.covered += ok;
      tl.total++;
      const k = `${group}: ${it.key}`;
      const bk = tl.byKey.get(k) ?? [0, 0];
      tl.byKey.set(k, [bk[0] + ok, bk[1] + 1]);
      if (SHARE_KINDS.has(it.kind) && Math.min(Math.round(it.y), Math.round(it.n - it.y)) < 30) {
        let rare = tallies.get(RARE);
        if (!rare) tallies.set(RARE, (rare = { covered: 0, total: 0, constant: 0, byKey: new Map() }));
        rare.covered += ok;
        rare.total++;
        const rk = `${group}: ${it.kind} ${it.key}`;
        const rb = rare.byKey.get(rk) ?? [0, 0];
        rare.byKey.set(rk, [rb[0] + ok, rb[1] + 1]);
      }
    }
  }
}

function coverageTable(title: string, tallies: Map<string, Tally>): void {
  say(title);
  say('');
  say('| interval | checked | coverage | lowest per quantity (at least 20 checks) |');
  say('|---|---:|---:|---|');
  for (const kind of ORDER) {
    const t = tallies.get(kind);
    if (!t || t.total === 0) continue;
    let worst = '';
    let worstRate = 2;
    for (const [k, [c, n]] of t.byKey) {
      if (n >= 20 && c / n < worstRate) {
        worstRate = c / n;
        worst = `${k} ${pct(c, n)}`;
      }
    }
    say(`| ${kind} | ${t.total} | ${pct(t.covered, t.total)} | ${worst}${t.constant > 0 ? `; ${t.constant} of a constant value left out` : ''} |`);
  }
  say('');
}

async function coverage(): Promise<void> {
  const tallies = new Map<string, Tally>();
  const narrow = new Map<string, { raw: number; adj: number; n: number }>();
  let wider = 0;
  let zero = 0;
  let intervals = 0;
  const unbiased: { what: string; z: number }[] = [];
  const perProfile: Record<string, Record<string, string>> = {};
  for (const [pname, rules] of PROFILES.filter(([p]) => !onlyProfiles || onlyProfiles.includes(p))) {
    const profTallies = new Map<string, Tally>();
    for (const lu of LINEUPS) {
      const perSeed: Item[][] = [];
      const t0 = performance.now();
      let hands = 0;
      for (let i = 0; i < seeds; i++) {
        const r = await run({ name: `cal-${pname}-${lu.name}`, seed: `calibrate-${pname}-${lu.name}-${i + 1}`, hands: lu.hands, rules, bots: lu.bots, seating: 'duplicate' }, `${pname}-${lu.name}-${i}`);
        hands += r.hands;
        done(r.dir);
        const arm = r.s.arms[0]!;
        perSeed.push(items(arm));
        // Never wider, never zero width; the narrowing of every bot and pair.
        const check = (key: string, raw: Estimate, adj: Estimate | null): void => {
          for (const e of [raw, adj]) {
            if (!e || !Number.isFinite(e.mean)) continue;
            intervals++;
            if (!(e.hi > e.lo)) zero++;
          }
          if (!adj) return;
          if (half(adj) > half(raw) * (1 + 1e-12)) wider++;
          const n = narrow.get(key) ?? { raw: 0, adj: 0, n: 0 };
          n.raw += half(raw);
          n.adj += half(adj);
          n.n++;
          narrow.set(key, n);
        };
        for (const b of arm.bots) {
          check(`${pname}|${lu.name}|${b.bot}`, b.pointsPerHand, b.pointsPerHandAdjusted);
          for (const e of [b.winRate, b.dealInRate, b.selfDrawShare, b.taiPerWin]) {
            if (!Number.isFinite(e.mean)) continue;
            intervals++;
            if (!(e.hi > e.lo)) zero++;
          }
        }
        for (const p of arm.paired) check(`${pname}|${lu.name}|${p.a} − ${p.b}`, p.diff, p.diffAdjusted);
      }
      note(`coverage ${pname} ${lu.name}: ${seeds} seeds, ${hands.toLocaleString('en-US')} hands in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      // Unbiasedness: the adjusted − raw difference of each estimate, over the seeds (mean and its z).
      for (const kind of ['points/hand', 'paired difference']) {
        const keys = new Set(perSeed[0]!.filter((it) => it.kind === `${kind} (raw)`).map((it) => it.key));
        for (const key of keys) {
          const d = perSeed.map((list) => {
            const raw = list.find((it) => it.kind === `${kind} (raw)` && it.key === key);
            const adj = list.find((it) => it.kind === `${kind} (luck-adjusted)` && it.key === key);
            return raw && adj ? adj.e.mean - raw.e.mean : NaN;
          });
          const m = d.reduce((a, x) => a + x, 0) / d.length;
          const sdm = Math.sqrt(d.reduce((a, x) => a + (x - m) ** 2, 0) / (d.length - 1) / d.length);
          if (Number.isFinite(m) && sdm > 0) unbiased.push({ what: `${pname} ${lu.name} ${key}`, z: m / sdm });
        }
      }
      tally(`${pname} ${lu.name}`, perSeed, tallies);
      tally(`${lu.name}`, perSeed, profTallies);
    }
    perProfile[pname] = Object.fromEntries([...profTallies].map(([k, t]) => [k, `${pct(t.covered, t.total)} of ${t.total}`]));
  }
  coverageTable(`Coverage of 95% intervals, ${seeds} seeds per experiment, every profile and the house rule (truth: pooled over the other seeds)`, tallies);
  say(`Adjusted intervals wider than raw: ${wider}; intervals of zero width: ${zero} of ${intervals}.`);
  const zs = unbiased.map((u) => Math.abs(u.z));
  const worstZ = unbiased.reduce((w, u) => (Math.abs(u.z) > Math.abs(w.z) ? u : w), { what: '', z: 0 });
  say(`Unbiasedness: over the seeds, luck-adjusted − raw of ${unbiased.length} estimates (bots and pairs): |z| > 2 for ${zs.filter((z) => z > 2).length} (about ${(0.046 * unbiased.length).toFixed(0)} expected by chance), largest ${worstZ.what} z = ${worstZ.z.toFixed(2)}.`);
  say('');
  say('Coverage per profile (every interval kind):');
  say('');
  for (const [p, t] of Object.entries(perProfile)) say(`- ${p}: ${Object.entries(t).map(([k, v]) => `${k} ${v}`).join('; ')}`);
  say('');
  say(`How much narrower the luck-adjusted 95% interval is than the raw one (mean half-widths over ${seeds} seeds; duplicate seating)`);
  say('');
  say('| profile | line-up | bot or pair | raw ± | adjusted ± | narrower |');
  say('|---|---|---|---:|---:|---:|');
  const medians: Record<string, number[]> = {};
  for (const [key, n] of narrow) {
    const [p, lu, what] = key.split('|');
    say(`| ${p} | ${lu} | ${what} | ${(n.raw / n.n).toPrecision(3)} | ${(n.adj / n.n).toPrecision(3)} | ${(n.raw / n.adj).toFixed(2)}× |`);
    if (what!.includes(' − ')) (medians[`${p} ${lu}`] ??= []).push(n.raw / n.adj);
  }
  say('');
  say(`Median pair: ${Object.entries(medians).map(([k, v]) => `${k} ${median(v).toFixed(2)}×`).join(', ')}.`);
  say('');
  results.coverage = { unbiased, tallies: Object.fromEntries([...tallies].map(([k, t]) => [k, { covered: t.covered, total: t.total, constant: t.constant }])), wider, zero, intervals, narrow: Object.fromEntries(narrow) };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

// ---------------------------------------------------------------------------------------------
// League ratings.

async function league(): Promise<void> {
  const perSeed: Item[][] = [];
  const t0 = performance.now();
  let hands = 0;
  const ranks = new Map<string, number[]>();
  let copiesOverlap = 0;
  let randomLast = 0;
  for (let i = 0; i < seeds; i++) {
    const r = await run(
      {
        name: 'cal-league',
        seed: `calibrate-league-${i + 1}`,
        hands: 150,
        rules: 'p0',
        bots: ['greedy', 'defensive', 'value', 'random', { name: 'greedy-2', path: 'greedy' }, { name: 'loner', path: 'bots/loner.mjs' }],
      },
      `league-${i}`,
    );
    hands += r.hands;
    done(r.dir);
    const L = r.s.league!;
    const list: Item[] = [];
    for (const x of L.ratings) {
      list.push({ kind: 'league rating (raw)', key: x.bot, e: { mean: x.rating, lo: x.lo, hi: x.hi, se: x.se, df: L.deals - 1, estimator: 'league-ls-t' }, y: x.rating, n: 1 });
      if (x.adjusted !== null) list.push({ kind: 'league rating (luck-adjusted)', key: x.bot, e: { mean: x.adjusted, lo: x.adjustedLo!, hi: x.adjustedHi!, se: x.adjustedSe!, df: L.deals - 1, estimator: 'league-ls-cv-t' }, y: x.adjusted, n: 1 });
      const sorted = [...L.ratings].sort((a, b) => b.rating - a.rating).map((q) => q.bot);
      const rk = ranks.get(x.bot) ?? [];
      rk.push(sorted.indexOf(x.bot) + 1);
      ranks.set(x.bot, rk);
    }
    for (const p of L.pairs) {
      const key = `${p.a} − ${p.b}`;
      list.push({ kind: 'league pair (raw)', key, e: p.diff, y: p.diff.mean, n: 1 });
      if (p.diffAdjusted) list.push({ kind: 'league pair (luck-adjusted)', key, e: p.diffAdjusted, y: p.diffAdjusted.mean, n: 1 });
    }
    perSeed.push(list);
    const g = L.ratings.find((x) => x.bot === 'greedy')!;
    const g2 = L.ratings.find((x) => x.bot === 'greedy-2')!;
    if ((g.adjustedLo ?? g.lo) <= (g2.adjustedHi ?? g2.hi) && (g2.adjustedLo ?? g2.lo) <= (g.adjustedHi ?? g.hi)) copiesOverlap++;
    if ([...L.ratings].sort((a, b) => a.rating - b.rating)[0]!.bot === 'random') randomLast++;
  }
  note(`league: ${seeds} seeds, ${hands.toLocaleString('en-US')} hands in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const tallies = new Map<string, Tally>();
  tally('league', perSeed, tallies);
  coverageTable(`League ratings: 6 bots (greedy, defensive, value, random, greedy-2 = greedy, loner module), p0, 150 deals × 24 seatings a seed, ${seeds} seeds`, tallies);
  say(`greedy and greedy-2 (one strategy, two names): intervals overlap in ${copiesOverlap} of ${seeds} seeds; random last in ${randomLast} of ${seeds}.`);
  say(`Mean rank (1 = best): ${[...ranks].map(([b, r]) => `${b} ${(r.reduce((a, x) => a + x, 0) / r.length).toFixed(2)}`).join(', ')}.`);
  say('');
  results.league = { tallies: Object.fromEntries([...tallies].map(([k, t]) => [k, { covered: t.covered, total: t.total }])), copiesOverlap, randomLast };
}

// ---------------------------------------------------------------------------------------------
// The stop rule's error rates.

async function stop(): Promise<void> {
  const looks = stopLooksArg;
  const alpha = 0.05;
  const beta = 0.05;
  const delta = stopDelta;
  const design = stopDesign(looks, alpha, beta);
  const count = (v: Verdict[]): Record<string, number> => v.reduce<Record<string, number>>((m, x) => ((m[x] = (m[x] ?? 0) + 1), m), {});
  const atZero: Verdict[] = [];
  const atDelta: Verdict[] = [];
  const stopAt: number[] = [];
  const efficacyOnly: Verdict[] = [];
  const perLook: number[][][] = [];
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) {
    // It records the luck features: each look's estimate below is read back from hands.arrow.
    const r = await run({ name: 'cal-stop', seed: `calibrate-stop-${fromRep + i + 1}`, hands: looks[looks.length - 1], rules: 'p0', bots: ['greedy', { name: 'greedy-2', path: 'greedy' }], seating: 'fixed', record: ['luck-features'] }, `stop-${i}`);
    const path = join(r.dir, 'hands.arrow');
    const meta = await readMetadata(path);
    const est: Estimate[] = [];
    for (const n of looks) {
      const { raw, adjusted } = await pairedEstimates({ batches: () => readBatches(path), endDeal: n }, meta, ['greedy', 'greedy-2']);
      est.push(adjusted ?? raw);
    }
    /** The rule on these looks with the difference shifted by `shift`: its verdict and the deals it stopped at. */
    const apply = (shift: number): { v: Verdict; at: number } => {
      for (let k = 0; k < looks.length; k++) {
        const e = est[k]!;
        const v = decide(design, k, { ...e, mean: e.mean + shift }, delta).verdict;
        if (v !== 'continue') return { v, at: looks[k]! };
      }
      return { v: 'undecided', at: looks[looks.length - 1]! };
    };
    const zero = apply(0);
    const v0 = zero.v;
    const vd = apply(delta).v;
    const stopped0 = zero.at;
    // The efficacy boundary alone (no within_delta to stop early): its false-difference rate.
    let eff: Verdict = 'undecided';
    for (let k = 0; k < looks.length && eff === 'undecided'; k++) {
      const v = decide(design, k, est[k]!, 0).verdict;
      if (v === 'a_better' || v === 'b_better') eff = v;
    }
    efficacyOnly.push(eff);
    perLook.push(est.map((e) => [e.mean, e.se, e.df]));
    atZero.push(v0);
    atDelta.push(vd);
    stopAt.push(stopped0);
    done(r.dir);
    if ((i + 1) % 25 === 0) note(`stop: ${i + 1} of ${reps} repetitions, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const z = count(atZero);
  const d = count(atDelta);
  const wrong0 = (z.a_better ?? 0) + (z.b_better ?? 0);
  const wrongD = d.within_delta ?? 0;
  const se = (p: number) => Math.sqrt((p * (1 - p)) / reps);
  say(`Stop rule, alpha ${alpha}, beta ${beta}, delta ${delta}, looks at ${looks.join(', ')} deals; ${reps} repetitions of greedy against a copy of itself (fixed seating A B A B, p0)`);
  say('');
  say('| true difference | a_better | b_better | within_delta | undecided | error rate | bound |');
  say('|---|---:|---:|---:|---:|---:|---:|');
  say(`| 0 (equal) | ${z.a_better ?? 0} | ${z.b_better ?? 0} | ${z.within_delta ?? 0} | ${z.undecided ?? 0} | ${pct(wrong0, reps)} ± ${(196 * se(wrong0 / reps)).toFixed(1)} (a difference declared) | alpha ${alpha} |`);
  say(`| delta (shifted) | ${d.a_better ?? 0} | ${d.b_better ?? 0} | ${d.within_delta ?? 0} | ${d.undecided ?? 0} | ${pct(wrongD, reps)} ± ${(196 * se(wrongD / reps)).toFixed(1)} (within_delta declared) | beta ${beta} |`);
  say('');
  const effWrong = efficacyOnly.filter((v) => v !== 'undecided').length;
  say(`| 0, efficacy boundary alone (no early within_delta) | ${efficacyOnly.filter((v) => v === 'a_better').length} | ${efficacyOnly.filter((v) => v === 'b_better').length} | – | ${reps - effWrong} | ${pct(effWrong, reps)} ± ${(196 * se(effWrong / reps)).toFixed(1)} (a difference declared) | alpha ${alpha} |`);
  say('');
  say(`At 0 the rule stopped after ${(stopAt.reduce((a, x) => a + x, 0) / reps).toFixed(0)} deals on average (of ${looks[looks.length - 1]!.toLocaleString('en-US')}).`);
  // The copies under duplicate seating, with the stop rule in the experiment.
  const copies: Verdict[] = [];
  const n = Math.max(10, Math.round(reps / 4));
  for (let i = 0; i < n; i++) {
    const r = await run(
      { name: 'cal-copies', seed: `calibrate-copies-${i + 1}`, hands: 2000, rules: 'p0', bots: ['greedy', { name: 'greedy-2', path: 'greedy' }], seating: 'duplicate', stop: { compare: ['greedy', 'greedy-2'], delta } },
      `copies-${i}`,
    );
    copies.push(r.s.stop!.verdict);
    done(r.dir);
  }
  const c = count(copies);
  say(`Copies under duplicate seating (their difference is exactly 0 deal by deal), stop in the experiment, ${n} seeds: ${Object.entries(c).map(([k, x]) => `${k} ${x}`).join(', ')}.`);
  say('');
  results.stop = { looks, delta, atZero: z, atDelta: d, efficacyOnly: count(efficacyOnly), copies: c, reps, meanDealsAtZero: stopAt.reduce((a, x) => a + x, 0) / reps, perLook };
}

// ---------------------------------------------------------------------------------------------
// Deals saved.

async function savings(): Promise<void> {
  const pairs = [
    { what: 'clear', bots: ['greedy', 'random'], delta: 0.1 },
    { what: 'close', bots: ['greedy', 'defensive'], delta: 0.1 },
    { what: 'closer', bots: ['defensive', 'value'], delta: 0.1 },
  ];
  say('Deals the stop rule plays against a fixed-length run of the same power (alpha 0.05 two-sided, power 95% at delta), duplicate seating, p0, at most 4,000 deals');
  say('');
  say('| pair | delta | runs | verdicts | mean deals played | difference (mean) | fixed-length run | saved |');
  say('|---|---:|---:|---|---:|---:|---:|---:|');
  const nRuns = Math.max(5, Math.round(seeds / 4));
  const rows: unknown[] = [];
  for (const p of pairs) {
    const played: number[] = [];
    const sds: number[] = [];
    const means: number[] = [];
    const verdicts: Record<string, number> = {};
    for (let i = 0; i < nRuns; i++) {
      const r = await run({ name: `cal-save-${p.what}`, seed: `calibrate-save-${p.what}-${i + 1}`, hands: 4000, rules: 'p0', bots: p.bots, seating: 'duplicate', stop: { compare: p.bots, delta: p.delta } }, `save-${p.what}-${i}`);
      const st = r.s.stop!;
      played.push(st.deals);
      verdicts[st.verdict] = (verdicts[st.verdict] ?? 0) + 1;
      const last = st.looks[st.looks.length - 1]!.estimate;
      sds.push(last.se * Math.sqrt(st.deals));
      means.push(last.mean);
      done(r.dir);
    }
    const sd = Math.sqrt(sds.reduce((a, x) => a + x * x, 0) / sds.length);
    const fixed = Math.ceil(((normalQuantile(0.975) + normalQuantile(0.95)) * sd / p.delta) ** 2);
    const mean = played.reduce((a, x) => a + x, 0) / played.length;
    say(`| ${p.bots.join(' − ')} (${p.what}) | ${p.delta} | ${nRuns} | ${Object.entries(verdicts).map(([k, x]) => `${k} ${x}`).join(', ')} | ${mean.toFixed(0)} | ${(means.reduce((a, x) => a + x, 0) / means.length).toFixed(3)} | ${fixed} | ${((100 * (fixed - mean)) / fixed).toFixed(0)}% |`);
    rows.push({ pair: p.bots, delta: p.delta, played, verdicts, sd, fixed });
  }
  say('');
  results.savings = rows;
}

try {
  const t0 = performance.now();
  if (parts.includes('coverage')) await coverage();
  if (parts.includes('league')) await league();
  if (parts.includes('stop')) await stop();
  if (parts.includes('savings')) await savings();
  note(`calibrate: ${((performance.now() - t0) / 60000).toFixed(1)} minutes`);
  if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ seeds, reps, parts, results, text: out }, null, 2)}\n`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
