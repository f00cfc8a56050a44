/**
 * Luck weights: how a run turns each seat's chance-event features (src/engine/luck.ts) into
 * one number of points, `luck_s` in hands.arrow, that the summary subtracts from the seat's
 * points (the luck-adjusted estimates). The weights are data fitted once on seeds of their
 * own (scripts/fit-luck.ts → luckweights.ts), never on the run they adjust, so the adjusted
 * estimates are exactly unbiased whatever the weights: the features have mean zero.
 */
import { LUCK_F, LUCK_FEATURES, LuckAccount } from '../../engine/index.js';
import type { Profile } from '../../rules/profiles.js';
import { LUCK_WEIGHTS, type LuckWeights } from './luckweights.js';

export type { LuckWeights };

/** The seed the weights were fitted on (no experiment should use it). */
export const LUCK_FIT_SEED = 'tw16-luck-fit-1';

/**
 * The weights for a profile at given stakes: those of the built-in profile of the same name,
 * else p0's (a house-rule profile); features in points (`…Points…`) are computed at the run's
 * stakes and keep their weight, the others are scaled by the typical payment at these stakes
 * over that at 1/1: (base + perTai·T) / (1 + T), T the mean tai per payment. Undefined when
 * there are no weights for this feature set (a stale luckweights.ts).
 */
export function luckWeights(profile: Profile, stakes: { readonly base: number; readonly perTai: number }): Float64Array | undefined {
  const fitted = LUCK_WEIGHTS[profile.name] ?? LUCK_WEIGHTS.p0;
  if (!fitted || fitted.weights.length !== LUCK_F) return undefined;
  const T = fitted.meanTai;
  const scale = (stakes.base + stakes.perTai * T) / (1 + T);
  return Float64Array.from(fitted.weights, (w, f) => (LUCK_FEATURES[f]!.includes('Points') ? w : w * scale));
}

/** A luck account for hands of `profile` at these stakes (its weights by `luckWeights`; none: luck records stay 0). */
export function luckAccount(profile: Profile, stakes: { readonly base: number; readonly perTai: number }): LuckAccount | undefined {
  const w = luckWeights(profile, stakes);
  return w ? new LuckAccount(w) : undefined;
}
