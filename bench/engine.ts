/**
 * Engine speed: whole hands per second, single thread, scoring and settlement included.
 * Run: npx tsc -p . && node dist/bench/engine.js [profile]
 *
 * Each tinybench iteration plays a batch of BATCH consecutive hand keys (one hand is too
 * short for the timer); hands/s is BATCH / batch median. Targets (issue 4): ≥ 50,000
 * hands/s with four random bots, ≥ 10,000 with four greedy bots.
 */
import { Bench } from 'tinybench';
import { getProfile } from '../src/rules/index.js';
import { handPosition, playHand, type BotFactory } from '../src/engine/index.js';
import { greedy, random } from '../bots/index.js';

const BATCH = 100;
const rules = getProfile(process.argv[2] ?? 'p0');
let key = 0;
let sink = 0;

function batch(bots: readonly BotFactory[]): () => void {
  return () => {
    for (let i = 0; i < BATCH; i++) {
      const k = key++;
      sink += playHand({ ...handPosition(k), rules, seed: 'bench/engine', bots }).turns;
    }
  };
}

const bench = new Bench({ time: 3000, warmup: true });
bench.add('4 random bots', batch([random, random, random, random]));
bench.add('4 greedy bots', batch([greedy, greedy, greedy, greedy]));
await bench.run();

console.log(`engine: profile ${rules.name}, batches of ${BATCH} hands, single thread`);
for (const task of bench.tasks) {
  const r = task.result;
  if (r.state !== 'completed') {
    console.log(`${task.name}: ${r.state}`);
    continue;
  }
  const perSec = (BATCH * 1000) / r.latency.p50;
  console.log(`${task.name.padEnd(14)} median ${perSec.toFixed(0).padStart(7)} hands/s  (${r.latency.samplesCount} batches)`);
}
if (sink < 0) console.log(sink);
