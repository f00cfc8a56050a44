/**
 * Soak: N hands (default 1,000,000) with both checkers on after every step — the invariant
 * (bookkeeping) checker and the rules-level checker, a second referee — cycling through the
 * five profiles. Even hand keys seat four random bots; odd ones a rotating line-up of the
 * adversarial bots and the built-in strategies. Reports failures (expect 0).
 * Run: npx tsc -p . && node dist/bench/soak.js [N] [seed] [first hand key]
 * (two processes on halves of the range use both cores: `… 500000 soak 0` and `… 500000 soak 500000`).
 */
import { getProfile, PROFILE_NAMES } from '../src/rules/index.js';
import { handPosition, playHand, type BotFactory } from '../src/engine/index.js';
import { replayCommand } from '../src/harness/experiment/replay.js';
import { ADVERSARIAL, BOTS, random } from '../bots/index.js';

const N = Number(process.argv[2] ?? 1_000_000);
const seed = process.argv[3] ?? 'soak';
const first = Number(process.argv[4] ?? 0);
const profiles = PROFILE_NAMES.map((n) => getProfile(n));
const names = [...Object.keys(ADVERSARIAL), ...Object.keys(BOTS)];
const factories: BotFactory[] = names.map((n) => ADVERSARIAL[n] ?? BOTS[n]!);
let failures = 0;
const outcomes: Record<string, number> = {};
const t0 = Date.now();
for (let k = first; k < first + N; k++) {
  const rules = profiles[k % profiles.length]!;
  const line = k % 2 === 0 ? [0, 0, 0, 0].map(() => -1) : [0, 1, 2, 3].map((s) => ((k >> 1) + s * 3) % names.length);
  const bots = line.map((i) => (i < 0 ? random : factories[i]!));
  const botNames = line.map((i) => (i < 0 ? 'random' : names[i]!));
  // The hands-mode position of the key, with the streak varied too (a streak changes settlement).
  const setup = { ...handPosition(k), streak: k % 4, rules, seed, botNames };
  try {
    const r = playHand({ ...setup, bots, check: true });
    outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
  } catch (err) {
    failures++;
    if (failures <= 20) console.log(`FAIL hand ${k}: ${err instanceof Error ? err.message : String(err)}\n  ${replayCommand({ ...setup, rules: rules.name, bots: botNames, check: true })}`);
  }
  if ((k - first + 1) % 100_000 === 0) console.log(`${k - first + 1} hands, ${failures} failures, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
console.log(`soak: ${N} hands from key ${first}, ${failures} failures, outcomes ${JSON.stringify(outcomes)}, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
process.exitCode = failures ? 1 : 0;
