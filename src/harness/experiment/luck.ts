/**
 * Luck accounting in a run: every hand is played with a luck account (src/engine/luck.ts) that
 * records its chance-event features, seat by seat (HandResult.luckFeatures → hands.arrow
 * `luck_<seat>_<feature>`). The run fixes no weights: the summary fits them on the run itself, by
 * cross-fitting (src/harness/analysis/luckfit.ts), so they fit whatever profile, house rule, stakes
 * and bots were played, and the adjusted estimates stay exactly unbiased (every feature has mean
 * zero whatever the bots do).
 */
import { LUCK_F, LUCK_FEATURES, LuckAccount } from '../../engine/index.js';
import type { Profile } from '../../rules/profiles.js';
import { LUCK_WEIGHTS } from './luckweights.js';

/** A luck account for the hands of a run: it records every hand's features, with no weights. */
export function luckAccount(): LuckAccount {
  return new LuckAccount();
}

/** The seed the reference weights were fitted on (scripts/fit-luck.ts; no experiment should use it). */
export const LUCK_FIT_SEED = 'tw16-luck-fit-1';

/**
 * Reference weights, fitted once per built-in profile on seeds of their own (luckweights.ts, by
 * scripts/fit-luck.ts), for luck as one number of points where there is no run to fit on: the
 * per-step luck of `tw16 env`. Those of the built-in profile of the same name, else p0's; features
 * in points (`…Points…`) keep their weight at other stakes, the others scale with the typical payment
 * (base + perTai·T) / (1 + T), T the mean tai per payment. Undefined for a stale luckweights.ts.
 * Any fixed weights leave the luck's mean at zero; these only make it less noisy for the built-in bots.
 */
export function referenceLuckWeights(profile: Profile, stakes: { readonly base: number; readonly perTai: number }): Float64Array | undefined {
  const fitted = LUCK_WEIGHTS[profile.name] ?? LUCK_WEIGHTS.p0;
  if (!fitted || fitted.weights.length !== LUCK_F) return undefined;
  const T = fitted.meanTai;
  const scale = (stakes.base + stakes.perTai * T) / (1 + T);
  return Float64Array.from(fitted.weights, (w, f) => (LUCK_FEATURES[f]!.includes('Points') ? w : w * scale));
}

/** A luck account weighted by the reference weights (its `seats()` in points), or undefined without them. */
export function referenceLuckAccount(profile: Profile, stakes: { readonly base: number; readonly perTai: number }): LuckAccount | undefined {
  const w = referenceLuckWeights(profile, stakes);
  return w ? new LuckAccount(w) : undefined;
}
