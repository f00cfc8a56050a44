/**
 * Head to head: points per hand of four bots (hands at their hands-mode positions, seats rotated).
 * Run: npx tsc -p . && node dist/bench/vs.js [profile] [a,b,c,d] [hands]
 */
import { handPosition, playHand } from '../src/engine/index.js';
import { getProfile } from '../src/rules/index.js';
import { BOTS } from '../bots/index.js';
const rules = getProfile(process.argv[2] ?? 'p0');
const names = (process.argv[3] ?? 'greedy,random,random,random').split(',');
const N = Number(process.argv[4] ?? 2000);
const bots = names.map((n) => BOTS[n]!);
const tot = [0, 0, 0, 0]; const wins=[0,0,0,0]; const out: Record<string, number> = {};
for (let k = 0; k < 300; k++) playHand({ rules, seed: 'warm', handKey: k, dealer: 0, round: 0, streak: 0, bots });
const t0 = performance.now();
for (let k = 0; k < N; k++) {
  // Each hand at its hands-mode position (dealer k mod 4, round ⌊k/4⌋ mod 4); the seats rotate
  // every 16 hands, so over 64 hands each bot sits in each seat under each dealer and round.
  const rot = (k >> 4) & 3; const line = [0,1,2,3].map((s) => bots[(s + rot) % 4]!);
  const r = playHand({ ...handPosition(k), rules, seed: 'vs', bots: line, check: process.env.CHECK === '1' });
  out[r.outcome] = (out[r.outcome] ?? 0) + 1;
  for (let s = 0; s < 4; s++) { tot[(s + rot) % 4]! += r.deltas[s]!; }
  for (const w of r.winners) wins[(w.seat + rot) % 4]!++;
}
const dt = performance.now() - t0;
console.log(rules.name, names.join(','), (N / dt * 1000).toFixed(0), 'hands/s', out);
console.log('points/hand', tot.map((x) => (x / N).toFixed(3)).join(' '), 'wins', wins.join(' '));
