/**
 * Loading a bot from a spec: a built-in bot by name (bots/index.ts), a user bot from a module
 * path (JavaScript or TypeScript, anywhere on disk: loader.ts), or a bot program from a command
 * (`cmd:…`, speaking the protocol of docs/protocol.md: process.ts, bridge.ts).
 *
 * A user bot module's default export is either a BotFactory `(seat, rng, rules) => Bot`
 * or `{ name, create }` with `create` a BotFactory (a named export `create` also works).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BotFactory } from '../../index.js';
import { BotLoadError, getBot } from '../../../bots/index.js';
import { BRIDGE_TIMEOUT_MS, commandBot } from './bridge.js';
import { threadBot } from './thread.js';
import { commandSpec, isCommandSpec, parseCommandSpec, resolveCommand } from './command.js';
import { importBotModule } from './loader.js';

export { BotLoadError };

/** Does `spec` name a module path rather than a built-in bot (or a command)? */
export function isBotPath(spec: string): boolean {
  return !isCommandSpec(spec) && (/[/\\]/.test(spec) || /\.([cm]?[jt]s)$/.test(spec));
}

/**
 * A module path given a name, `NAME=PATH` (two bots both called `bot.js` need names of their
 * own), as its name and path; null when `spec` is not one.
 */
export function parseNamedPath(spec: string): { name: string; path: string } | null {
  const m = /^([A-Za-z0-9._-]+)=(.+)$/s.exec(spec);
  return m && !isCommandSpec(spec) && isBotPath(m[2]!) ? { name: m[1]!, path: m[2]! } : null;
}

/** A bot's default name from its module path: the file name without its extension. */
export function botNameFromPath(p: string): string {
  const file = p.split(/[/\\]/).pop() ?? p;
  return file.replace(/\.([cm]?[jt]s)$/, '');
}

/** A module path as a bot-list entry: `PATH`, or `NAME=PATH` when the name is not the file's. */
export function pathSpec(name: string, path: string): string {
  return name === botNameFromPath(path) ? path : `${name}=${path}`;
}

/**
 * A bot-list entry that names the same bot from any directory: module paths and a command's
 * file words made absolute against `base` (for the replay commands tw16 prints).
 */
export function absoluteBotSpec(spec: string, base: BotBase = cwdBase()): string {
  if (isCommandSpec(spec)) {
    try {
      const cmd = parseCommandSpec(spec);
      return commandSpec(cmd.name, resolveCommand(cmd.command, base.dir));
    } catch {
      return spec;
    }
  }
  const named = parseNamedPath(spec);
  if (named) return `${named.name}=${resolve(base.dir, named.path)}`;
  return isBotPath(spec) ? resolve(base.dir, spec) : spec;
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

/** Where relative bot paths resolve, for messages: `the current directory` or `the experiment file's directory (/abs)`. */
export interface BotBase {
  readonly dir: string;
  readonly label: string;
}

/** The current directory as a base. */
export function cwdBase(): BotBase {
  return { dir: process.cwd(), label: `the current directory (${process.cwd()})` };
}

/** One bridged program per command (every seat naming it shares it). */
const commands = new Map<string, BotFactory>();
/** One thread per module bot with a time limit (thread.ts). */
const threads = new Map<string, BotFactory>();

/** How a bot loaded for `tw16 replay` or `tw16 play` is run. */
export interface LoadOptions {
  /**
   * Longest a decision may take (ms). Set and above 0, a module bot plays in a thread of its own
   * (thread.ts) that is stopped when a decision overruns it, and a program gets it per request;
   * unset or 0, a module bot plays in this thread with no limit (for a debugger).
   */
  readonly timeoutMs?: number;
}

/**
 * A built-in bot by name, a user bot from a module path, or a bot program from `[NAME=]cmd:WORDS`
 * (served through the synchronous bridge: external/bridge.ts). Relative paths (and a command's
 * relative file words) resolve against `base`, by default the current directory.
 */
export async function loadBotFactory(spec: string, base: BotBase = cwdBase(), opts: LoadOptions = {}): Promise<BotFactory> {
  if (isCommandSpec(spec)) {
    let cmd;
    try {
      cmd = parseCommandSpec(spec);
    } catch (err) {
      throw new BotLoadError(`bot ${(err as Error).message}`);
    }
    const command = resolveCommand(cmd.command, base.dir);
    const key = JSON.stringify([cmd.name, command, opts.timeoutMs]);
    let f = commands.get(key);
    if (!f) commands.set(key, (f = commandBot({ name: cmd.name, command }, opts.timeoutMs ?? BRIDGE_TIMEOUT_MS)));
    return f;
  }
  const named = parseNamedPath(spec);
  if (named) spec = named.path;
  if (!isBotPath(spec)) return getBot(spec);
  const path = resolve(base.dir, spec);
  if (!existsSync(path)) throw new BotLoadError(`cannot load bot ${spec}: no file ${path} (relative bot paths resolve against ${base.label})`);
  let mod: unknown;
  try {
    mod = await importBotModule(path);
  } catch (err) {
    throw new BotLoadError(`cannot load bot ${spec} (${path}): ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  const factory = factoryFromModule(mod, spec);
  // Loaded here first, so a module that does not load is an error now (exit 2), not in a hand.
  if (opts.timeoutMs === undefined || opts.timeoutMs <= 0) return factory;
  // One thread per module, as one module instance serves every seat in this thread (and in a run's worker).
  const key = JSON.stringify([path, opts.timeoutMs]);
  let f = threads.get(key);
  if (!f) threads.set(key, (f = threadBot(path, opts.timeoutMs)));
  return f;
}

