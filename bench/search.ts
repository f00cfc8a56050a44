/**
 * The search bot's costs, single thread: rollouts per second (tinybench: a world sampled from
 * a seat's view, copied, and played out with greedy in every seat, from positions spread over
 * a hand) and milliseconds per decision of `search:N` at several budgets (decisions with a
 * choice the search weighs; forced ones and wins cost nothing and are left out).
 *
 * Run (under the CPU lock): npx tsc -p . && node dist/bench/search.js [profile] [budget,budget,…] [hands]
 */
import { Bench } from 'tinybench';
import { getProfile } from '../src/rules/index.js';
import { makeRng } from '../src/core/rng.js';
import { handPosition, playHand, sampleWorld, Table, type Action, type BotFactory, type View } from '../src/engine/index.js';
import { greedy } from '../bots/index.js';
import { playOut, searchBot, SEARCH_WORLDS } from '../bots/search.js';

const rules = getProfile(process.argv[2] ?? 'p0');
const budgets = (process.argv[3] ?? '16,64,256').split(',').map(Number);
const HANDS = Number(process.argv[4] ?? 40);

// Positions to roll out from: every 4th turn decision of greedy hands, as snapshots.
const positions: { table: Table; seat: number }[] = [];
for (let k = 0; positions.length < 64; k++) {
  const t = new Table().reset({ ...handPosition(k), rules, seed: 'bench/search' });
  const g = greedy(0, makeRng('g'), rules);
  let n = 0;
  while (!t.isOver()) {
    const s = t.pendingSeat(0);
    if (t.decisionPhase() === 'turn' && n++ % 4 === 1) positions.push({ table: t.clone(), seat: s });
    t.apply(s, g.decide(t.view(s), Array.from(t.legalOf(s))));
  }
}

const rng = makeRng('bench/search rollouts');
const world = new Table();
const work = new Table();
let at = 0;
let sink = 0;
const ROLLOUTS = 50;
const bench = new Bench({ time: Number(process.env.BENCH_MS ?? 3000), warmup: true });
bench.add(`${ROLLOUTS} rollouts (sample as search does + copy + greedy playout)`, () => {
  for (let i = 0; i < ROLLOUTS; i++) {
    const p = positions[at++ % positions.length]!;
    sampleWorld(p.table.view(p.seat), rng, world, SEARCH_WORLDS);
    work.copyFrom(world);
    sink += playOut(work, p.seat);
  }
});
bench.add(`${ROLLOUTS} samples only, as search draws them`, () => {
  for (let i = 0; i < ROLLOUTS; i++) {
    const p = positions[at++ % positions.length]!;
    sink += sampleWorld(p.table.view(p.seat), rng, world, SEARCH_WORLDS).front;
  }
});
bench.add(`${ROLLOUTS} samples only, readyWaits alone`, () => {
  for (let i = 0; i < ROLLOUTS; i++) {
    const p = positions[at++ % positions.length]!;
    sink += sampleWorld(p.table.view(p.seat), rng, world, { readyWaits: true }).front;
  }
});
await bench.run();
console.log(`search bench: profile ${rules.name}, single thread`);
for (const task of bench.tasks) {
  const r = task.result;
  if (r.state !== 'completed') continue;
  console.log(`${task.name}: median ${r.latency.p50.toFixed(2)} ms a batch → ${((ROLLOUTS * 1000) / r.latency.p50).toFixed(0)} per second`);
}

/** ms of each decision of `bot` that had more than one legal action and no win. */
function timedDecisions(make: BotFactory, times: number[]): BotFactory {
  return (seat, r, rules) => {
    const bot = make(seat, r, rules);
    return {
      decide(view: View, legal: readonly Action[]): Action {
        const t0 = performance.now();
        const a = bot.decide(view, legal);
        const ms = performance.now() - t0;
        if (legal.length > 1 && !legal.some((x) => x >> 6 === 1)) times.push(ms);
        return a;
      },
    };
  };
}

for (const n of budgets) {
  const times: number[] = [];
  const s = timedDecisions(searchBot(n), times);
  const t0 = performance.now();
  for (let k = 0; k < HANDS; k++) sink += playHand({ ...handPosition(k), rules, seed: 'bench/search', bots: k & 1 ? [s, greedy, s, greedy] : [greedy, s, greedy, s] }).turns;
  const total = performance.now() - t0;
  times.sort((a, b) => a - b);
  const q = (f: number) => times[Math.min(times.length - 1, Math.floor(f * times.length))]!;
  console.log(`search:${n}: ${times.length} decisions with a choice over ${HANDS} hands; ms a decision median ${q(0.5).toFixed(2)}, p90 ${q(0.9).toFixed(2)}, max ${q(1).toFixed(1)}; ${(total / HANDS).toFixed(0)} ms a hand`);
}
if (sink === 0.5) console.log(sink);
