/**
 * Verify the table-driven hot path against the exact oracle (src/hand/oracle.ts) on seeded
 * hands of every kind (random 16/17, complete 17, one-from-complete 17, ready 16, one-suit 17),
 * melds cycling 0–5: shanten always; the win check on 17 − 3·melds tiles; waits on
 * 16 − 3·melds; each through the count-array API and through HandState.
 *
 * Run: npx tsc -p . && node dist/bench/verify.js [--per-kind N] [--seed S]
 * Default 100,000 hands per kind (about a minute). Exit code 1 on any mismatch.
 */
import { HAND_KINDS, genHands, type GenHand } from './hands.js';
import { formatCounts } from '../src/core/tiles.js';
import { HandState, isWinningHand, shanten, waits } from '../src/hand/index.js';
import { oracleIsWinning, oracleShanten, oracleWaits } from '../src/hand/oracle.js';

const args = process.argv.slice(2);
const opt = (name: string, def: string): string => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1]! : def;
};
const PER_KIND = Number(opt('--per-kind', '100000'));
const SEED = opt('--seed', 'bench/verify v1');
if (!(Number.isInteger(PER_KIND) && PER_KIND > 0)) {
  console.error(`verify: --per-kind must be a positive integer, got ${opt('--per-kind', '')}`);
  process.exit(2);
}

interface Tally {
  hands: number;
  shanten: number;
  win: number;
  waits: number;
  mismatches: number;
}

const examples: string[] = [];
function mismatch(t: Tally, h: GenHand, what: string): void {
  t.mismatches++;
  if (examples.length < 20) examples.push(`${formatCounts(h.counts)} melds=${h.melds}: ${what}`);
}

function check(h: GenHand, t: Tally): void {
  const { counts, melds } = h;
  let size = 0;
  for (let i = 0; i < 34; i++) size += counts[i]!;
  const state = new HandState(counts, melds);
  const want = oracleShanten(counts, melds);
  const got = shanten(counts, melds);
  t.shanten++;
  if (got !== want || state.shanten() !== want) mismatch(t, h, `shanten ${got} (HandState ${state.shanten()}), oracle ${want}`);
  if (size === 17 - 3 * melds) {
    const w = oracleIsWinning(counts, melds);
    t.win++;
    if (isWinningHand(counts, melds) !== w || state.isWinning() !== w) mismatch(t, h, `win ≠ oracle ${w}`);
  } else {
    const o = oracleWaits(counts, melds).join(',');
    t.waits++;
    const a = waits(counts, melds).join(',');
    const b = state.waits().join(',');
    if (a !== o || b !== o) mismatch(t, h, `waits [${a}] (HandState [${b}]), oracle [${o}]`);
  }
}

console.log(`verify: tables vs oracle, ${PER_KIND} hands per kind, seed "${SEED}", melds 0–5`);
console.log('| hand kind          | hands   | shanten | win     | waits   | mismatches | seconds |');
console.log('|--------------------|---------|---------|---------|---------|------------|---------|');
const total: Tally = { hands: 0, shanten: 0, win: 0, waits: 0, mismatches: 0 };
for (const kind of HAND_KINDS) {
  const t: Tally = { hands: 0, shanten: 0, win: 0, waits: 0, mismatches: 0 };
  const start = performance.now();
  // In chunks, so memory stays flat however many hands are asked for.
  for (let done = 0, chunk = 0; done < PER_KIND; chunk++) {
    const n = Math.min(10_000, PER_KIND - done);
    for (const h of genHands(`${SEED}/${chunk}`, kind, n)) {
      check(h, t);
      t.hands++;
    }
    done += n;
  }
  const secs = ((performance.now() - start) / 1000).toFixed(1);
  const cell = (x: number, w: number): string => String(x).padStart(w);
  console.log(`| ${kind.padEnd(18)} | ${cell(t.hands, 7)} | ${cell(t.shanten, 7)} | ${cell(t.win, 7)} | ${cell(t.waits, 7)} | ${cell(t.mismatches, 10)} | ${secs.padStart(7)} |`);
  for (const k of ['hands', 'shanten', 'win', 'waits', 'mismatches'] as const) total[k] += t[k];
}
console.log(
  `total: ${total.hands} hands, ${total.shanten} shanten, ${total.win} win and ${total.waits} waits checks, ` +
    `${total.mismatches} mismatches`,
);
for (const e of examples) console.log(`  mismatch: ${e}`);
process.exitCode = total.mismatches === 0 ? 0 : 1;
