/**
 * Fit the reference luck weights (src/harness/experiment/luckweights.ts) once, on seeds of their own;
 * `tw16 env` weights its per-step luck with them (a run fits its own, analysis/luckfit.ts): per built-in
 * profile, the four built-in bots on DEALS deals under duplicate seating (24 seatings a deal),
 * least squares of each seat's points on its chance-event features after the zero-sum
 * transform (src/engine/luck.ts `luckOf`). The weights are data fixed before any experiment
 * sees them, so a run's luck-adjusted points stay exactly unbiased whatever they are; good
 * weights only make them less noisy.
 *
 *   npx tsc -p . && node dist/scripts/fit-luck.js [DEALS=3000] [profile …] [--out FILE]
 *
 * Rewrites src/harness/experiment/luckweights.ts (or FILE) and prints, per profile, the share of the variance of a
 * seat's points the weights explain on the fitting hands.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { greedy, defensive, value, random } from '../bots/index.js';
import { handPosition, LUCK_F, LUCK_FEATURES, LuckAccount, playHand, type BotFactory } from '../src/engine/index.js';
import { seatings } from '../src/harness/experiment/experiment.js';
import { LUCK_FIT_SEED } from '../src/harness/experiment/luck.js';
import { getProfile, PROFILE_NAMES } from '../src/rules/index.js';

const USAGE = 'usage: node dist/scripts/fit-luck.js [DEALS=3000] [profile …] [--out FILE]';
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const outAt = args.indexOf('--out');
const outArg = outAt >= 0 ? args.splice(outAt, 2)[1] : undefined;
const deals = Number(args[0] ?? 3000);
const profiles = args.length > 1 ? args.slice(1) : [...PROFILE_NAMES];
// Nothing is written unless every argument makes sense (a bad one used to fit on NaN deals and overwrite the weights with zeros).
const bad = (what: string): never => {
  process.stderr.write(`fit-luck: ${what}\n${USAGE}\n`);
  process.exit(2);
};
if (outAt >= 0 && !outArg) bad('--out: expected a file name');
if (!Number.isInteger(deals) || deals < 1) bad(`DEALS: expected a whole number ≥ 1, got ${JSON.stringify(args[0])}`);
for (const p of profiles) if (!(PROFILE_NAMES as readonly string[]).includes(p)) bad(`unknown profile ${JSON.stringify(p)} (one of ${PROFILE_NAMES.join(', ')})`);
const roster: BotFactory[] = [greedy, defensive, value, random];
const lines = seatings('duplicate', ['greedy', 'defensive', 'value', 'random']);

/** Solve (A + λI) x = b by Gaussian elimination with partial pivoting (A symmetric, n small). */
function solve(A: Float64Array, b: Float64Array, n: number, ridge: number): Float64Array {
  const M = new Float64Array(n * (n + 1));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) M[i * (n + 1) + j] = A[i * n + j]! + (i === j ? ridge : 0);
    M[i * (n + 1) + n] = b[i]!;
  }
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r * (n + 1) + c]!) > Math.abs(M[p * (n + 1) + c]!)) p = r;
    for (let j = 0; j <= n; j++) {
      const x = M[c * (n + 1) + j]!;
      M[c * (n + 1) + j] = M[p * (n + 1) + j]!;
      M[p * (n + 1) + j] = x;
    }
    const d = M[c * (n + 1) + c]!;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r * (n + 1) + c]! / d;
      if (f === 0) continue;
      for (let j = c; j <= n; j++) M[r * (n + 1) + j]! -= f * M[c * (n + 1) + j]!;
    }
  }
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = M[i * (n + 1) + n]! / M[i * (n + 1) + i]!;
  return x;
}

interface Fit {
  readonly weights: number[];
  readonly meanTai: number;
  readonly r2: number;
}

function fit(profile: string): Fit {
  const rules = getProfile(profile);
  const acc = new LuckAccount();
  const n = LUCK_F;
  const XtX = new Float64Array(n * n);
  const Xty = new Float64Array(n);
  const x = new Float64Array(n);
  let yy = 0;
  let payments = 0;
  let paid = 0;
  for (let deal = 0; deal < deals; deal++) {
    const { dealer, round } = handPosition(deal);
    for (const line of lines) {
      const bots = line.map((i) => roster[i]!);
      const r = playHand({ rules, seed: LUCK_FIT_SEED, handKey: deal, dealer, round, streak: 0, bots, luck: acc });
      const F = acc.features;
      for (let s = 0; s < 4; s++) {
        for (let f = 0; f < n; f++) {
          const own = F[s * n + f]!;
          const all = F[f]! + F[n + f]! + F[2 * n + f]! + F[3 * n + f]!;
          x[f] = own - (all - own) / 3;
        }
        const y = r.deltas[s]!;
        yy += y * y;
        for (let i = 0; i < n; i++) {
          const xi = x[i]!;
          if (xi === 0) continue;
          Xty[i]! += xi * y;
          for (let j = 0; j < n; j++) XtX[i * n + j]! += xi * x[j]!;
        }
      }
      // Tai per payment (dealer and streak tai included), for scaling to other stakes.
      for (const w of r.winners) {
        const payers = r.outcome === 'self_draw' ? 3 : 1;
        payments += payers;
        paid += r.deltas[w.seat]!;
      }
    }
  }
  // A small ridge keeps features that never occur in a profile (e.g. declared ready outside p0) at 0.
  const trace = Array.from({ length: n }, (_, i) => XtX[i * n + i]!).reduce((a, b) => a + b, 0);
  const w = solve(XtX, Xty, n, (1e-9 * trace) / n + 1e-12);
  let explained = 0;
  for (let i = 0; i < n; i++) explained += w[i]! * Xty[i]!;
  return { weights: [...w].map((v) => Number(v.toPrecision(4))), meanTai: payments > 0 ? paid / payments - 1 : 0, r2: yy > 0 ? explained / yy : 0 };
}

const fits: Record<string, Fit> = {};
for (const p of profiles) {
  const t0 = performance.now();
  fits[p] = fit(p);
  process.stdout.write(`${p}: ${deals} deals × ${lines.length} seatings, R² ${fits[p]!.r2.toFixed(3)} of a seat's points, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
}

const out = outArg ?? fileURLToPath(new URL('../../src/harness/experiment/luckweights.ts', import.meta.url));
const body = Object.entries(fits)
  .map(([p, f]) => `  ${p}: {\n    meanTai: ${Number(f.meanTai.toPrecision(4))},\n    r2: ${Number(f.r2.toPrecision(3))},\n    weights: [${f.weights.join(', ')}],\n  },`)
  .join('\n');
writeFileSync(
  out,
  `/**
 * Reference luck weights per built-in profile (for \`tw16 env\`'s per-step luck; runs fit their own,
 * analysis/luckfit.ts): generated by scripts/fit-luck.ts (do not edit by hand).
 * Seed ${JSON.stringify(LUCK_FIT_SEED)}, ${deals} deals per profile, the four built-in bots under
 * duplicate seating, stakes 1/1. \`weights\` follow LUCK_FEATURES (${LUCK_FEATURES.length}); \`meanTai\` is the mean
 * tai (dealer and streak tai included) per payment, for other stakes; \`r2\` the share of a
 * seat's points the weights explain on those hands.
 */
/** The fitted weights of one profile. */
export interface LuckWeights {
  /** Mean tai per payment (dealer and streak tai included) on the fitting hands. */
  readonly meanTai: number;
  /** Share of a seat's points the weights explained on the fitting hands. */
  readonly r2: number;
  /** One weight per feature, in LUCK_FEATURES order, for stakes base 1, perTai 1. */
  readonly weights: readonly number[];
}

export const LUCK_WEIGHTS: Readonly<Record<string, LuckWeights>> = {
${body}
};
`,
);
process.stdout.write(`wrote ${out}\n`);
