/**
 * Luck accounting in a run: every hand is played with a luck account (src/engine/luck.ts) that
 * records its chance-event features, seat by seat (HandResult.luckFeatures → hands.arrow
 * `luck_<seat>_<feature>`). The run fixes no weights: the summary fits them on the run itself, by
 * cross-fitting (src/harness/analysis/luckfit.ts), so they fit whatever profile, house rule, stakes
 * and bots were played, and the adjusted estimates stay exactly unbiased (every feature has mean
 * zero whatever the bots do).
 */
import { LuckAccount } from '../../engine/index.js';

/** A luck account for the hands of a run: it records every hand's features, with no weights. */
export function luckAccount(): LuckAccount {
  return new LuckAccount();
}
