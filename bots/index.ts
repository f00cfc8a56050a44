/**
 * The bot registry: built-in bots by name, and loading a user bot from a module path.
 *
 * A user bot module's default export is either a BotFactory `(seat, rng, rules) => Bot`
 * or `{ name, create }` with `create` a BotFactory (a named export `create` also works).
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
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

/** A bot that cannot be found or loaded: one line, exit code 2. */
export class BotLoadError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'BotLoadError';
  }
}

/** Does `spec` name a module path rather than a built-in bot? */
export function isBotPath(spec: string): boolean {
  return /[/\\]/.test(spec) || /\.(m?[jt]s|cjs)$/.test(spec);
}

/** The built-in bot `name` (an adversarial test bot too, so its replay commands run); throws BotLoadError listing the known names. */
export function getBot(name: string): BotFactory {
  const f = BOTS[name] ?? ADVERSARIAL[name];
  if (!f) throw new BotLoadError(`unknown bot "${name}" (known: ${BOT_NAMES.join(', ')}; adversarial test bots: ${Object.keys(ADVERSARIAL).join(', ')}; or give a path like ./my-bot.js)`);
  return f;
}

/** Extract a BotFactory from a loaded module, or throw naming what was found. */
export function factoryFromModule(mod: unknown, where: string): BotFactory {
  const m = mod as { default?: unknown; create?: unknown };
  const candidates = [m.default, (m.default as { create?: unknown } | undefined)?.create, m.create, (m.default as { default?: unknown } | undefined)?.default];
  for (const c of candidates) {
    if (typeof c === 'function') return c as BotFactory;
    if (c && typeof c === 'object' && typeof (c as { create?: unknown }).create === 'function') return (c as { create: BotFactory }).create;
  }
  throw new BotLoadError(`bot module ${where} has no BotFactory: export default (seat, rng, rules) => bot, or { name, create }`);
}

/** A built-in bot by name, or a user bot from a module path (resolved against the working directory). */
export async function loadBotFactory(spec: string): Promise<BotFactory> {
  if (!isBotPath(spec)) return getBot(spec);
  const url = pathToFileURL(resolve(spec)).href;
  let mod: unknown;
  try {
    mod = await import(url);
  } catch (err) {
    throw new BotLoadError(`cannot load bot ${spec}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  return factoryFromModule(mod, spec);
}

export { random, greedy, defensive, value };
export { ADVERSARIAL };
