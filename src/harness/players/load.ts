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
import { commandBot } from './bridge.js';
import { isCommandSpec, parseCommandSpec, resolveCommand } from './command.js';
import { importBotModule } from './loader.js';

export { BotLoadError };

/** Does `spec` name a module path rather than a built-in bot (or a command)? */
export function isBotPath(spec: string): boolean {
  return !isCommandSpec(spec) && (/[/\\]/.test(spec) || /\.([cm]?[jt]s)$/.test(spec));
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

/**
 * A built-in bot by name, a user bot from a module path, or a bot program from `[NAME=]cmd:WORDS`
 * (served through the synchronous bridge: external/bridge.ts). Relative paths (and a command's
 * relative file words) resolve against `base`, by default the current directory.
 */
export async function loadBotFactory(spec: string, base: BotBase = cwdBase()): Promise<BotFactory> {
  if (isCommandSpec(spec)) {
    let cmd;
    try {
      cmd = parseCommandSpec(spec);
    } catch (err) {
      throw new BotLoadError(`bot ${(err as Error).message}`);
    }
    const command = resolveCommand(cmd.command, base.dir);
    const key = JSON.stringify([cmd.name, command]);
    let f = commands.get(key);
    if (!f) commands.set(key, (f = commandBot({ name: cmd.name, command })));
    return f;
  }
  if (!isBotPath(spec)) return getBot(spec);
  const path = resolve(base.dir, spec);
  if (!existsSync(path)) throw new BotLoadError(`cannot load bot ${spec}: no file ${path} (relative bot paths resolve against ${base.label})`);
  let mod: unknown;
  try {
    mod = await importBotModule(path);
  } catch (err) {
    throw new BotLoadError(`cannot load bot ${spec} (${path}): ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  return factoryFromModule(mod, spec);
}

