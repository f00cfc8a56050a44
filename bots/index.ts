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

/** The built-in bots by name. */
export const BOTS: Readonly<Record<string, BotFactory>> = Object.freeze({ random, greedy, defensive, value });

/** Names of the built-in bots. */
export const BOT_NAMES: readonly string[] = Object.keys(BOTS);

/** What each built-in bot does, in one line (`tw16 list bots`; docs/bots.md "Built-in bots"). */
export const BOT_ABOUT: Readonly<Record<string, string>> = Object.freeze({
  random: 'uniform over the legal actions, but always takes a win',
  greedy: 'discards to the lowest shanten (ties: most unseen improving tiles); claims only when it lowers its shanten; declares ready',
  defensive: 'greedy, but folds against an opponent who looks ready when 2+ from ready, else picks the safest of its fastest discards',
  value: 'greedy with a pull toward half/full flushes and honour pungs, leaning to all pungs with four pairs',
});

/** A bot that cannot be found or loaded: one line, exit code 2. */
export class BotLoadError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'BotLoadError';
  }
}

/** The built-in bot `name` (an adversarial test bot too, so its replay commands run); throws BotLoadError listing the known names. */
export function getBot(name: string): BotFactory {
  const f = BOTS[name] ?? ADVERSARIAL[name];
  if (!f) throw new BotLoadError(`unknown bot "${name}" (known: ${BOT_NAMES.join(', ')}; adversarial test bots: ${Object.keys(ADVERSARIAL).join(', ')}; or give a path like ./my-bot.js)`);
  return f;
}

/**
 * The module (a file of bots/, without extension) a built-in bot's code lives in: its own file
 * for BOTS, bots/adversarial for the test bots; undefined for an unknown name. A run fingerprints
 * that file (src/harness/experiment/botfiles.ts).
 */
export function builtinModule(name: string): string | undefined {
  if (Object.hasOwn(BOTS, name)) return name;
  return Object.hasOwn(ADVERSARIAL, name) ? 'adversarial' : undefined;
}

export { random, greedy, defensive, value };
export { ADVERSARIAL };
