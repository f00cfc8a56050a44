/**
 * Scoring speed: scoreHand on random complete hands (seeded), per profile.
 * Run: npx tsc -p . && node dist/bench/scoring.js
 *
 * Each tinybench iteration scores a batch of BATCH different hands (one call is too short
 * for the timer); the per-hand figure is the batch median divided by BATCH. Target
 * (issue 3): ≤ 5 µs median per hand.
 */
import seedrandom from 'seedrandom';
import { Bench } from 'tinybench';
import { getProfile, scoreHand, type WinFacts } from '../src/rules/index.js';
import { randomCompleteHand } from '../src/rules/random-hand.js';

const HANDS = 4096;
const BATCH = 64;

const rng = seedrandom('bench/scoring');
const hands: WinFacts[] = Array.from({ length: HANDS }, () => randomCompleteHand(rng));

let cursor = 0;
let sink = 0;
function scoreBatch(profileName: string): () => void {
  const profile = getProfile(profileName);
  return () => {
    for (let i = 0; i < BATCH; i++) {
      sink += scoreHand(hands[cursor]!, profile).tai;
      cursor = (cursor + 1) % HANDS;
    }
  };
}

const bench = new Bench({ time: 1500, warmup: true });
for (const name of ['p0', 'full', 'table']) bench.add(`scoreHand ×${BATCH} (${name})`, scoreBatch(name));
await bench.run();

console.log(`scoring: ${HANDS} seeded random complete hands, batches of ${BATCH}`);
for (const task of bench.tasks) {
  const r = task.result;
  if (r.state !== 'completed') {
    console.log(`${task.name}: ${r.state}`);
    continue;
  }
  const perHandUs = (r.latency.p50 * 1000) / BATCH;
  const p99Us = (r.latency.p99 * 1000) / BATCH;
  console.log(`${task.name.padEnd(26)} median ${perHandUs.toFixed(2)} µs/hand  p99 ${p99Us.toFixed(2)} µs/hand  (${r.latency.samplesCount} batches)`);
}
if (sink < 0) console.log(sink); // keep the work observable
