/**
 * The engine's floor for bench/floor.ts: the hands a `tw16 run` of an experiment plays, played by
 * `playHand` through the public entry alone (one thread, no records, no summary), luck off.
 *
 *   node dist/bench/floor-engine.js EXPERIMENT.json DEALS [--luck]
 *
 * Deal d plays every seating of the deal (duplicate: 24 hands) at the hand's hands-mode position,
 * in the order a run's job plays them. It prints the hands played; the caller times the process.
 */
import { getProfile, handPosition, playHand, type BotFactory } from '../src/index.js';
import { BOTS } from '../bots/index.js';
import { firstSeating, loadExperiment, seatingPlan } from '../src/harness/experiment/experiment.js';
import { luckAccount } from '../src/harness/experiment/luck.js';

const [file, dealsText] = process.argv.slice(2);
const deals = Number(dealsText);
if (!file || !(deals >= 1)) {
  console.error('usage: node dist/bench/floor-engine.js EXPERIMENT.json DEALS [--luck]');
  process.exit(2);
}
const e = loadExperiment(file);
if (e.unit !== 'hands' || e.rules.length !== 1) {
  console.error('floor-engine: an experiment of hands under one rule profile');
  process.exit(2);
}
const plan = seatingPlan(e);
const rules = getProfile(String(e.rules[0]));
const lines: BotFactory[][] = plan.lines.map((line) => line.map((i) => BOTS[e.bots[i]!.name]!));
const luck = process.argv.includes('--luck') ? luckAccount() : undefined;
let hands = 0;
for (let deal = 0; deal < deals; deal++) {
  const pos = handPosition(deal);
  const first = firstSeating(plan, deal);
  for (let s = first; s < first + plan.perDeal; s++) {
    playHand({ handKey: pos.handKey, dealer: pos.dealer, round: pos.round, streak: pos.streak, rules, seed: e.seed, bots: lines[s]!, base: e.stakes.base, perTai: e.stakes.perTai, luck });
    hands++;
  }
}
console.log(hands);
