/**
 * Engine speed: whole hands per second, single thread, scoring and settlement included.
 * Run: npx tsc -p . && node dist/bench/engine.js [profile]
 *
 * Each tinybench iteration plays a batch of BATCH consecutive hand keys (one hand is too
 * short for the timer); hands/s is BATCH / batch median. Targets (issue 4): ≥ 50,000
 * hands/s with four random bots, ≥ 10,000 with four greedy bots. Each line-up runs with luck
 * accounting off and on (the account `tw16 run` attaches: each seat's features, no weights), the
 * two interleaved, and the luck on/off ratio of the medians is printed (issue 21: ≤ 1.15).
 */
import { Bench } from 'tinybench';
import { getProfile } from '../src/rules/index.js';
import { handPosition, playHand, type BotFactory } from '../src/engine/index.js';
import { defensive, greedy, random, value } from '../bots/index.js';
import { luckAccount } from '../src/harness/experiment/luck.js';

const BATCH = 100;
const rules = getProfile(process.argv[2] ?? 'p0');
let key = 0;
let sink = 0;

const account = luckAccount();

/** BATCH hands of the line-ups in turn (a mixed table's seats rotate with the hand key), luck accounting on or off. */
function batch(lineups: readonly (readonly BotFactory[])[], luck: boolean): () => void {
  return () => {
    for (let i = 0; i < BATCH; i++) {
      const k = key++;
      const bots = lineups[k % lineups.length]!;
      sink += playHand({ ...handPosition(k), rules, seed: 'bench/engine', bots, ...(luck ? { luck: account } : {}) }).turns;
    }
  };
}

const LINEUPS: [string, BotFactory[][]][] = [
  ['4 random bots', [[random, random, random, random]]],
  ['4 greedy bots', [[greedy, greedy, greedy, greedy]]],
  [
    'default mix',
    [
      [greedy, defensive, value, random],
      [random, greedy, defensive, value],
      [value, random, greedy, defensive],
      [defensive, value, random, greedy],
    ],
  ],
];
const bench = new Bench({ time: Number(process.env.BENCH_MS ?? 3000), warmup: true });
// Off and on interleaved per line-up, so a change of load hits both.
for (const [name, lineups] of LINEUPS) {
  bench.add(name, batch(lineups, false));
  bench.add(`${name}, luck`, batch(lineups, true));
}
await bench.run();

console.log(`engine: profile ${rules.name}, batches of ${BATCH} hands, single thread`);
for (const task of bench.tasks) {
  const r = task.result;
  if (r.state !== 'completed') {
    console.log(`${task.name}: ${r.state}`);
    continue;
  }
  const perSec = (BATCH * 1000) / r.latency.p50;
  console.log(`${task.name.padEnd(20)} median ${perSec.toFixed(0).padStart(7)} hands/s  (${r.latency.samplesCount} batches)`);
}
for (const [name] of LINEUPS) {
  const off = bench.tasks.find((t) => t.name === name)?.result;
  const on = bench.tasks.find((t) => t.name === `${name}, luck`)?.result;
  if (off?.state === 'completed' && on?.state === 'completed') console.log(`${name}: luck on / off time per hand ${(on.latency.p50 / off.latency.p50).toFixed(3)}`);
}
if (sink < 0) console.log(sink);
