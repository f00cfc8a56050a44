/**
 * Soak: N hands (default 1,000,000) with four random bots and the invariant checker on
 * after every step, cycling through the five profiles. Reports failures (expect 0).
 * Run: npx tsc -p . && node dist/bench/soak.js [N] [seed]
 */
import { getProfile, PROFILE_NAMES } from '../src/rules/index.js';
import { playHand, replayCommand } from '../src/engine/index.js';
import { random } from '../bots/index.js';

const N = Number(process.argv[2] ?? 1_000_000);
const seed = process.argv[3] ?? 'soak';
const profiles = PROFILE_NAMES.map((n) => getProfile(n));
const bots = [random, random, random, random];
const botNames = ['random', 'random', 'random', 'random'];
let failures = 0;
const outcomes: Record<string, number> = {};
const t0 = Date.now();
for (let k = 0; k < N; k++) {
  const rules = profiles[k % profiles.length]!;
  const setup = { rules, seed, handKey: k, dealer: k & 3, round: ((k >> 2) & 3) as 0 | 1 | 2 | 3, streak: k % 4, botNames };
  try {
    const r = playHand({ ...setup, bots, check: true });
    outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
  } catch (err) {
    failures++;
    if (failures <= 20) console.log(`FAIL hand ${k}: ${err instanceof Error ? err.message : String(err)}\n  ${replayCommand(setup)}`);
  }
  if ((k + 1) % 100_000 === 0) console.log(`${k + 1} hands, ${failures} failures, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
console.log(`soak: ${N} hands, ${failures} failures, outcomes ${JSON.stringify(outcomes)}, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
process.exitCode = failures ? 1 : 0;
