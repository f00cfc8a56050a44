/**
 * Loading a bot from a spec: a built-in bot by name (bots/index.ts), a user bot from a module
 * path (JavaScript or TypeScript, anywhere on disk: loader.ts), or a bot program from a command
 * (`cmd:…`, speaking the protocol of docs/protocol.md: process.ts, bridge.ts).
 *
 * A user bot module's default export is either a BotFactory `(seat, rng, rules) => Bot`
 * or `{ name, create }` with `create` a BotFactory (a named export `create` also works).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
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
 * Does `spec` (`NAME`, `NAME=PATH`, a path or a command) name a built-in bot? Built-ins are tw16's
 * own code, as the engine is: a run does not time their decisions (watchdog.ts `timed`).
 */
export function isBuiltinBot(spec: string): boolean {
  return !isCommandSpec(spec) && !isBotPath(spec); // a NAME=PATH names a module path (parseNamedPath)
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
  if (isBuiltinBot(spec)) return getBot(spec);
  spec = parseNamedPath(spec)?.path ?? spec;
  const path = resolve(base.dir, spec);
  if (!existsSync(path)) throw new BotLoadError(`cannot load bot ${spec}: no file ${path} (relative bot paths resolve against ${base.label})`);
  let mod: unknown;
  try {
    mod = await importBotModule(path);
  } catch (err) {
    throw new BotLoadError(`cannot load bot ${spec}: ${whereItFailed(err, path)}`);
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


/**
 * Why and where a bot module failed to load, as one line `FILE:LINE[:COL]: Error: message`: a
 * TypeScript bot's syntax error from tsx (esbuild names the place), a JavaScript syntax error
 * (V8 does not put the place in the error object, so `node --check` finds it), or an exception
 * thrown while the module ran (the first frame of the stack in the bot's own files).
 */
export function whereItFailed(err: unknown, path: string): string {
  if (!(err instanceof Error)) return String(err);
  const lines = err.message.split('\n');
  // esbuild (through tsx): "Transform failed with 1 error:\n/abs/bot.ts:5:4: ERROR: Unexpected "]""
  const esbuild = lines.map((l) => /^(.+?):(\d+):(\d+): ERROR: (.*)$/.exec(l)).find((m) => m !== null);
  if (esbuild) return `${esbuild[1]}:${esbuild[2]}:${esbuild[3]}: SyntaxError: ${esbuild[4]}`;
  if (err.name === 'SyntaxError') {
    // CommonJS puts "FILE:LINE" first in the stack; an ES module does not say where.
    const head = /^(\/.+):(\d+)$/.exec(err.stack?.split('\n')[0] ?? '');
    const at = head ? { file: head[1]!, line: Number(head[2]) } : syntaxErrorAt(path);
    if (at) return `${at.file}:${at.line}: SyntaxError: ${lines[0]}`;
  }
  const dir = dirname(path);
  for (const frame of (err.stack ?? '').split('\n').slice(1)) {
    const m = /(?:file:\/\/)?(\/[^\s()]+?):(\d+):(\d+)\)?$/.exec(frame.trim());
    if (m && m[1]!.startsWith(dir) && !m[1]!.includes('/node_modules/')) return `${m[1]}:${m[2]}:${m[3]}: ${err.name}: ${lines[0]}`;
  }
  return `${path}: ${err.name === 'Error' ? '' : `${err.name}: `}${lines[0]}`;
}

/** Where `node --check` (as CommonJS, then as an ES module) finds a syntax error in `path`, if it does. */
function syntaxErrorAt(path: string): { file: string; line: number } | undefined {
  const first = (r: ReturnType<typeof spawnSync>) => /^(.*):(\d+)$/m.exec(String(r.stderr ?? ''));
  let r = spawnSync(process.execPath, ['--check', path], { encoding: 'utf8', timeout: 10_000 });
  let m = r.status !== 0 ? first(r) : null;
  if (!m) {
    r = spawnSync(process.execPath, ['--input-type=module', '--check'], { input: readFileSync(path, 'utf8'), encoding: 'utf8', timeout: 10_000 });
    m = r.status !== 0 ? first(r) : null;
  }
  return m ? { file: path, line: Number(m[2]) } : undefined;
}
