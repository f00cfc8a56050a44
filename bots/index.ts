/**
 * The built-in bots by name. Loading a bot from a spec (a module path, a program's command, or
 * one of these names) is the harness's job: src/harness/players/load.ts.
 */
import { InputError, type BotFactory } from '../src/index.js';
import { random } from './random.js';
import { greedy } from './greedy.js';
import { defensive } from './defensive.js';
import { value } from './value.js';
import { ADVERSARIAL } from './adversarial.js';
import { search, searchBot, SEARCH_ROLLOUTS } from './search.js';

/** The built-in bots by name. */
export const BOTS: Readonly<Record<string, BotFactory>> = Object.freeze({ random, greedy, defensive, value, search });

/**
 * Built-in bots whose decisions take microseconds (search plays rollouts, seconds a hand: not it).
 * A small run of only these plays in tw16's own thread rather than start a worker's
 * (src/harness/run/run.ts, inThisThread).
 */
export const QUICK_BOTS: ReadonlySet<string> = new Set(['random', 'greedy', 'defensive', 'value']);

/** Built-in bots that take a number, `NAME:N` (e.g. `search:200`: rollouts per decision). */
const WITH_NUMBER: Readonly<Record<string, (n: number) => BotFactory>> = Object.freeze({ search: searchBot });

/** Names of the built-in bots. */
export const BOT_NAMES: readonly string[] = Object.keys(BOTS);

/** What each built-in bot does, in one line (`tw16 list bots`; docs/bots.md "Built-in bots"). */
export const BOT_ABOUT: Readonly<Record<string, string>> = Object.freeze({
  random: 'uniform over the legal actions, but always takes a win',
  greedy: 'discards to the lowest shanten (ties: most unseen improving tiles); claims only when it lowers its shanten; declares ready',
  defensive: 'greedy, but folds against an opponent who looks ready when 2+ from ready, else picks the safest of its fastest discards',
  value: 'greedy with a pull toward half/full flushes and honour pungs, leaning to all pungs with four pairs',
  search: `plays greedy's best discards, every claim, kong and ready declaration out in worlds sampled from its view (greedy in every seat) and takes the best mean points; search:N sets the rollouts per decision (default ${SEARCH_ROLLOUTS})`,
});

/** A bot that cannot be found or loaded: one line, exit code 2. */
export class BotLoadError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'BotLoadError';
  }
}

/**
 * The built-in bot `name`, or `NAME:N` for one that takes a number (an adversarial test bot too,
 * so its replay commands run); throws BotLoadError listing the known names.
 */
export function getBot(name: string): BotFactory {
  const m = /^([A-Za-z0-9_-]+):(.*)$/s.exec(name);
  if (m) {
    const make = WITH_NUMBER[m[1]!];
    if (!make) throw new BotLoadError(`bot "${m[1]}" takes no number (${name}); only ${Object.keys(WITH_NUMBER).map((k) => `${k}:N`).join(', ')} does`);
    const n = Number(m[2]);
    if (!/^[0-9]+$/.test(m[2]!) || !Number.isSafeInteger(n) || n < 1) throw new BotLoadError(`bot ${name}: N must be a whole number ≥ 1, got "${m[2]}"`);
    return make(n);
  }
  const f = BOTS[name] ?? ADVERSARIAL[name];
  if (!f) throw new BotLoadError(`unknown bot "${name}" (known: ${BOT_NAMES.join(', ')}, ${Object.keys(WITH_NUMBER).map((k) => `${k}:N`).join(', ')}; adversarial test bots: ${Object.keys(ADVERSARIAL).join(', ')}; or give a path like ./my-bot.js)`);
  return f;
}

/**
 * The module (a file of bots/, without extension) a built-in bot's code lives in: its own file
 * for BOTS, bots/adversarial for the test bots; undefined for an unknown name. A run fingerprints
 * that file (src/harness/experiment/botfiles.ts).
 */
export function builtinModule(name: string): string | undefined {
  const m = /^([A-Za-z0-9_-]+):/.exec(name); // `search:200`: search's own file
  if (m) return Object.hasOwn(WITH_NUMBER, m[1]!) ? m[1] : undefined;
  if (Object.hasOwn(BOTS, name)) return name;
  return Object.hasOwn(ADVERSARIAL, name) ? 'adversarial' : undefined;
}

export { random, greedy, defensive, value, search };
export { ADVERSARIAL };
