/**
 * What the bots of an experiment are made of: for each roster entry, the module it loads from
 * and the SHA-256 of that file and of every local file it imports (relative imports, followed
 * transitively; tw16's own code under src/ is covered by the code version instead). A run
 * records these so that a resume after a bot was edited is refused, not silently mixed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashFileSync, io } from '../io/files.js';
import { botBase, botCommand, type Experiment } from './experiment.js';
import { isBotPath } from '../players/load.js';
import { builtinModule, getBot } from '../../../bots/index.js';

/** One bot's code: its entry module and the hash of each file it is made of (absolute paths). */
export interface BotFingerprint {
  readonly name: string;
  readonly module: string;
  readonly files: Readonly<Record<string, string>>;
}

/** Where the built-in bots' modules are (bots/ beside this build's src/). */
const BUILT_IN_DIR = fileURLToPath(new URL('../../../bots/', import.meta.url));
/** tw16's own code, which the version covers. */
const OWN_SRC = fileURLToPath(new URL('../../', import.meta.url));

/** The module file a roster entry loads (for a program: its command line). */
export function botModulePath(e: Experiment, bot: Experiment['bots'][number]): string {
  if (bot.command) return botCommand(e, bot).join(' ');
  if (bot.path && isBotPath(bot.path)) return resolve(botBase(e, bot).dir, bot.path);
  const name = bot.path ?? bot.name; // {"name": "greedy-2", "path": "greedy"}: a built-in under another name
  const file = builtinModule(name);
  if (file === undefined) getBot(name); // throws BotLoadError naming the known bots
  const js = `${BUILT_IN_DIR}${file}.js`;
  return existsSync(js) ? js : `${BUILT_IN_DIR}${file}.ts`;
}

/** Relative import specifiers in a module's text (static, re-exports, dynamic with a literal). */
function relativeImports(text: string): string[] {
  const re = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s*)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
  return [...text.matchAll(re)].map((m) => m[1] ?? m[2]!);
}

/** The file an import names: as written, or its TypeScript source when run from sources. */
function importTarget(from: string, spec: string): string | undefined {
  const p = resolve(dirname(from), spec);
  if (existsSync(p)) return p;
  const ts = p.replace(/\.js$/, '.ts');
  return existsSync(ts) ? ts : undefined;
}

/** Hash a module and its local imports. */
function moduleFiles(entry: string): Record<string, string> {
  const files: Record<string, string> = {};
  const todo = [entry];
  while (todo.length > 0) {
    const f = todo.pop()!;
    if (files[f] !== undefined) continue;
    files[f] = hashFileSync(f);
    const text = io(f, 'read', () => readFileSync(f, 'utf8'));
    for (const spec of relativeImports(text)) {
      const t = importTarget(f, spec);
      if (t && !t.startsWith(OWN_SRC)) todo.push(t);
    }
  }
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * A program's files: the words of its command that name files (its script, a model), hashed.
 * What a script imports is not followed (the languages vary): edit a helper module and a resume
 * will not notice.
 */
function commandFiles(command: readonly string[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const w of command) if (w.startsWith('/') && existsSync(w) && statSync(w).isFile()) files[w] = hashFileSync(w);
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The fingerprint of every distinct bot of the roster, in roster order. */
export function botFingerprints(e: Experiment): BotFingerprint[] {
  const seen = new Set<string>();
  const out: BotFingerprint[] = [];
  for (const b of e.bots) {
    if (seen.has(b.name)) continue;
    seen.add(b.name);
    const module = botModulePath(e, b);
    out.push({ name: b.name, module, files: b.command ? commandFiles(botCommand(e, b)) : moduleFiles(module) });
  }
  return out;
}

/** What changed between the recorded fingerprints and now, in one line; undefined if nothing. */
export function botChange(recorded: readonly BotFingerprint[], now: readonly BotFingerprint[]): string | undefined {
  for (const r of recorded) {
    const n = now.find((x) => x.name === r.name);
    if (!n || n.module !== r.module) return `bot "${r.name}": its module is now ${n?.module ?? 'gone'}, the run used ${r.module}`;
    for (const [file, sha] of Object.entries(r.files)) {
      const cur = n.files[file];
      if (cur === undefined) return `bot "${r.name}": ${file} is no longer part of it`;
      if (cur !== sha) return `bot "${r.name}": ${file} changed since the run started (SHA-256 ${sha.slice(0, 12)}…, now ${cur.slice(0, 12)}…)`;
    }
    for (const file of Object.keys(n.files)) if (r.files[file] === undefined) return `bot "${r.name}": it now also loads ${file}`;
  }
  return undefined;
}
