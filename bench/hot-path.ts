/**
 * Hot-path bench: win check (from counts and from kept keys), waits and shanten on fixed,
 * seeded hand sets, each beside a naive backtracking baseline (bench/naive.ts) run in the same
 * process on the same hands. Prints the table build time and memory, then one row per
 * (operation, hand set): median ns per hand, the baseline's, and how many times faster.
 *
 * Run: npm run bench   (= npx tsc -p . && node dist/bench/hot-path.js)
 * Options: --time MS (per task, default 400), --quick (fewer sets, shorter time).
 * Takes about a minute, most of it in the baselines.
 *
 * Each tinybench iteration runs one operation over the whole set of SET_SIZE hands (a single
 * call is far below the timer's resolution); ns/op = the iteration median / SET_SIZE. Every
 * operation has its own loop function so its call site stays monomorphic, as in real callers.
 */
import { Bench } from 'tinybench';
import { genHands, type GenHand, type HandKind } from './hands.js';
import { naiveIsWinning, naiveShanten, naiveWaits } from './naive.js';
import { HandState, handTables, isWinningHand, shanten, waits } from '../src/hand/index.js';

const SET_SIZE = 1024;
const SEED = 'bench/hot-path v1';
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const timeArg = args.indexOf('--time');
const TIME_MS = timeArg >= 0 ? Number(args[timeArg + 1]) : quick ? 150 : 400;

// ---- table build (cold, first thing that touches the tables in this process) ----
const rssBefore = process.memoryUsage().rss;
const t0 = performance.now();
const tables = handTables();
const buildMs = performance.now() - t0;
const readyAt = process.uptime() * 1000;
const rssAfter = process.memoryUsage().rss;

// ---- hand sets (melds 0: the 16/17-tile hands of the issue) ----
type Set = { name: HandKind; size: 16 | 17; hands: GenHand[]; counts: Uint8Array[]; states: HandState[] };
function makeSet(name: HandKind, size: 16 | 17): Set {
  const hands = genHands(SEED, name, SET_SIZE, 0);
  return { name, size, hands, counts: hands.map((h) => h.counts), states: hands.map((h) => new HandState(h.counts, 0)) };
}
const sets17 = (['random17', 'complete17', 'oneFromComplete17', 'oneSuit17'] as const).map((k) => makeSet(k, 17));
const sets16 = (['random16', 'ready16'] as const).map((k) => makeSet(k, 16));
const allSets = [...sets16, ...sets17];

// ---- one loop per operation (monomorphic call sites) ----
let sink = 0;
function winCounts(cs: Uint8Array[]): void {
  let x = 0;
  for (let i = 0; i < cs.length; i++) if (isWinningHand(cs[i]!, 0)) x++;
  sink += x;
}
function winKeys(ss: HandState[]): void {
  let x = 0;
  for (let i = 0; i < ss.length; i++) if (ss[i]!.isWinning()) x++;
  sink += x;
}
function waitsCounts(cs: Uint8Array[]): void {
  let x = 0;
  for (let i = 0; i < cs.length; i++) x += waits(cs[i]!, 0).length;
  sink += x;
}
function waitsKeys(ss: HandState[]): void {
  let x = 0;
  for (let i = 0; i < ss.length; i++) x += ss[i]!.waits().length;
  sink += x;
}
function shantenCounts(cs: Uint8Array[]): void {
  let x = 0;
  for (let i = 0; i < cs.length; i++) x += shanten(cs[i]!, 0);
  sink += x;
}
function shantenKeys(ss: HandState[]): void {
  let x = 0;
  for (let i = 0; i < ss.length; i++) x += ss[i]!.shanten();
  sink += x;
}
function naiveWin(cs: Uint8Array[]): void {
  let x = 0;
  for (let i = 0; i < cs.length; i++) if (naiveIsWinning(cs[i]!, 0)) x++;
  sink += x;
}
function naiveWaitsLoop(cs: Uint8Array[]): void {
  let x = 0;
  for (let i = 0; i < cs.length; i++) x += naiveWaits(cs[i]!, 0).length;
  sink += x;
}
function naiveShantenLoop(cs: Uint8Array[]): void {
  let x = 0;
  for (let i = 0; i < cs.length; i++) x += naiveShanten(cs[i]!, 0);
  sink += x;
}

interface Row {
  op: string;
  set: string;
  task: string;
  baseline?: string;
  target?: number;
}
const rows: Row[] = [];
// Table tasks: many short iterations. Baselines are 10³–10⁵ times slower, so they get their own
// bench with a lower minimum iteration count (the same hands, the same per-hand arithmetic).
const bench = new Bench({ time: TIME_MS, warmup: true, warmupTime: Math.min(100, TIME_MS / 2) });
const baselines = new Bench({ time: TIME_MS, iterations: 5, warmup: true, warmupIterations: 1, warmupTime: 0 });
const timed: (() => void)[] = [];
function add(name: string, fn: () => void): string {
  bench.add(name, fn);
  timed.push(fn);
  return name;
}
function addBaseline(name: string, fn: () => void): string {
  baselines.add(name, fn);
  return name;
}

const pick = <T extends { name: string }>(xs: T[]): T[] => (quick ? xs.slice(0, 2) : xs);
for (const s of pick(sets17)) {
  const base = addBaseline(`naive win ${s.name}`, () => naiveWin(s.counts));
  rows.push({ op: 'win check (counts)', set: s.name, task: add(`win counts ${s.name}`, () => winCounts(s.counts)), baseline: base, target: 30 });
  rows.push({ op: 'win check (kept keys)', set: s.name, task: add(`win keys ${s.name}`, () => winKeys(s.states)), baseline: base, target: 10 });
}
for (const s of sets16) {
  const base = addBaseline(`naive waits ${s.name}`, () => naiveWaitsLoop(s.counts));
  rows.push({ op: 'waits (counts)', set: s.name, task: add(`waits counts ${s.name}`, () => waitsCounts(s.counts)), baseline: base, target: 100 });
  rows.push({ op: 'waits (kept keys)', set: s.name, task: add(`waits keys ${s.name}`, () => waitsKeys(s.states)), baseline: base, target: 100 });
}
for (const s of pick(allSets)) {
  const base = addBaseline(`naive shanten ${s.name}`, () => naiveShantenLoop(s.counts));
  rows.push({ op: 'shanten (counts)', set: s.name, task: add(`shanten counts ${s.name}`, () => shantenCounts(s.counts)), baseline: base, target: 60 });
  rows.push({ op: 'shanten (kept keys)', set: s.name, task: add(`shanten keys ${s.name}`, () => shantenKeys(s.states)), baseline: base, target: 60 });
}

// Settle the JIT and the heap (setup garbage) before anything is timed, so the first task
// measured is not penalised for going first.
for (const fn of timed) for (let i = 0; i < 50; i++) fn();
await bench.run();
await baselines.run();

const nsPerHand = new Map<string, number>();
for (const task of [...bench.tasks, ...baselines.tasks]) {
  const r = task.result;
  if (r.state === 'completed') nsPerHand.set(task.name, (r.latency.p50 * 1e6) / SET_SIZE);
  else console.error(`${task.name}: ${r.state}`);
}

const mb = (b: number): string => `${(b / 2 ** 20).toFixed(1)} MiB`;
console.log(`tw16 hot path — Node ${process.version}, ${SET_SIZE} seeded hands per set (melds 0), ${TIME_MS} ms per task`);
console.log(
  `tables: built in ${buildMs.toFixed(0)} ms (process ready at ${readyAt.toFixed(0)} ms); ${mb(tables.bytes)} of typed arrays ` +
    `(RSS +${mb(rssAfter - rssBefore)}); profiles: ${tables.suit.profiles} per suit, ${tables.honor.profiles} honours, ` +
    `${tables.pairProfiles} two-suit, ${tables.tripleProfiles} three-suit`,
);
console.log('');
const header = ['operation', 'hand set', 'tables ns/op', 'baseline ns/op', 'speed-up', 'target'];
const lines = rows.map((row) => {
  const ns = nsPerHand.get(row.task);
  const base = row.baseline === undefined ? undefined : nsPerHand.get(row.baseline);
  const fmt = (x: number | undefined): string => (x === undefined ? 'n/a' : x < 100 ? x.toFixed(1) : x.toFixed(0));
  const speed = ns !== undefined && base !== undefined ? `${(base / ns).toFixed(0)}×` : 'n/a';
  const target = row.target === undefined ? '' : `≤${row.target} ${ns !== undefined && ns <= row.target ? 'met' : 'MISSED'}`;
  return [row.op, row.set, fmt(ns), fmt(base), speed, target];
});
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const l of lines) console.log(line(l));
console.log('');
console.log('baseline: recursive pair-then-sets win check, waits by trying all 34 kinds, classic sets/partials shanten');
if (sink === Number.MIN_SAFE_INTEGER) console.log(sink); // keep results observable
