/**
 * Type errors in a TypeScript bot. tsx runs a `.ts` bot as written, types stripped and never
 * checked, so a type error would otherwise go unseen; tw16 checks the bot with the TypeScript
 * compiler when one is installed (a checkout's dev dependency, or the bot project's own) and
 * reports the errors as warnings: they do not stop a run, the code runs as tsx runs it.
 *
 * The check is strict TypeScript on the bot's file and what it imports, with `tw16` resolving to
 * this package's types wherever the bot lives (as tw16 resolves it at run time: loader.ts), and
 * the bot's own tsconfig.json when there is one above it.
 *
 * A check takes seconds (docs/bots.md, "TypeScript"); its result is kept, per bot file, in
 * $TW16_CACHE_DIR (default node_modules/.cache/tw16 of this package) with the SHA-256 of every
 * file the check read (the bot, what it imports, tw16's types, its tsconfig and what that
 * extends), the compiler's version and where `tw16` resolves; the next run reuses it only when all
 * of those are the same, without loading the compiler. A result that could not find a module is
 * not kept (the file may appear). The cache is best-effort: one that cannot be read or written is
 * a check, never an error.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../../version.js';
import { writeAtomic } from '../io/files.js';

/** One type error: where, and the compiler's message (one line). */
export interface TypeErrorAt {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly code: number;
  readonly message: string;
}

/** Where the TypeScript compiler for the bot at `path` is (its project's, else this package's): its require, or undefined when neither is installed. */
function typeScriptFor(path: string): NodeJS.Require | undefined {
  for (const from of [path, join(PACKAGE_ROOT, 'package.json')]) {
    const req = createRequire(from);
    try {
      req.resolve('typescript');
      return req;
    } catch {
      // try the next
    }
  }
  return undefined;
}

/** The outcome of checking one bot: its type errors, and whether they came from the cache. */
export interface TypeCheck {
  readonly errors: readonly TypeErrorAt[];
  readonly cached: boolean;
}

/** What a check depends on besides file contents, found without the compiler. */
interface Setting {
  readonly typescript: string;
  readonly config: string | null;
  readonly ownTw16: boolean;
}

interface CacheEntry {
  readonly format: typeof CACHE_FORMAT;
  readonly path: string;
  readonly setting: Setting;
  /** Every file the check read (but the compiler's own lib files, covered by its version), with its SHA-256. */
  readonly inputs: Readonly<Record<string, string>>;
  readonly errors: readonly TypeErrorAt[];
}

const CACHE_FORMAT = 'tw16-typecheck-1';
/** "Cannot find module": such a result is not kept, the module may be there next time. */
const MISSING_MODULE = new Set([2307, 2792]);

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

function fileHash(file: string): string | null {
  try {
    return sha256(readFileSync(file));
  } catch {
    return null;
  }
}

/** The nearest tsconfig.json at or above `dir` (as ts.findConfigFile finds it), or null. */
function nearestConfig(dir: string): string | null {
  for (;;) {
    const f = join(dir, 'tsconfig.json');
    if (existsSync(f)) return f;
    if (dirname(dir) === dir) return null;
    dir = dirname(dir);
  }
}

/** Whether the bot's project has a tw16 of its own (looked up on disk: this process's resolver may already send `tw16` here, loader.ts). */
function hasOwnTw16(dir: string): boolean {
  for (;;) {
    if (existsSync(join(dir, 'node_modules', 'tw16', 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
    dir = dirname(dir);
  }
}

function cacheFile(path: string): string {
  return join(process.env.TW16_CACHE_DIR || join(PACKAGE_ROOT, 'node_modules', '.cache', 'tw16'), `typecheck-${sha256(path).slice(0, 32)}.json`);
}

/** The kept errors for `path` if every input and the setting are unchanged, else undefined. */
function cachedErrors(path: string, setting: Setting): readonly TypeErrorAt[] | undefined {
  let entry: CacheEntry;
  try {
    entry = JSON.parse(readFileSync(cacheFile(path), 'utf8')) as CacheEntry;
  } catch {
    return undefined;
  }
  if (entry?.format !== CACHE_FORMAT || entry.path !== path || JSON.stringify(entry.setting) !== JSON.stringify(setting)) return undefined;
  if (typeof entry.inputs !== 'object' || !entry.inputs[path] || !Array.isArray(entry.errors)) return undefined;
  for (const [file, hash] of Object.entries(entry.inputs)) if (fileHash(file) !== hash) return undefined;
  return entry.errors;
}

function keep(path: string, entry: CacheEntry): void {
  const file = cacheFile(path);
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeAtomic(file, JSON.stringify(entry));
  } catch {
    // best-effort: the next run checks again
  }
}

/**
 * Check the TypeScript bot at absolute `path`: its type errors (an empty list when it has none),
 * from the cache when nothing it depends on changed; undefined when no TypeScript compiler is
 * installed to check it with.
 */
export function typeErrors(path: string): TypeCheck | undefined {
  const req = typeScriptFor(path);
  if (!req) return undefined;
  const setting: Setting = {
    typescript: (req('typescript/package.json') as { version: string }).version,
    config: nearestConfig(dirname(path)),
    ownTw16: hasOwnTw16(dirname(path)),
  };
  const kept = cachedErrors(path, setting);
  if (kept) return { errors: kept, cached: true };

  const ts = req('typescript') as typeof import('typescript');
  const types = join(PACKAGE_ROOT, 'dist/src/index.d.ts');
  let options: import('typescript').CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    // The language only (no DOM: a bot runs in Node), and no @types packages unless its tsconfig asks.
    lib: ['lib.es2022.d.ts'],
    types: [],
  };
  const configFiles: string[] = [];
  if (setting.config) {
    // The files parsing it reads (itself, what it extends) are inputs of the check.
    const host: import('typescript').ParseConfigHost = {
      useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames,
      readDirectory: ts.sys.readDirectory,
      fileExists: ts.sys.fileExists,
      readFile: (f) => {
        configFiles.push(f);
        return ts.sys.readFile(f);
      },
    };
    const read = ts.readConfigFile(setting.config, host.readFile);
    if (!read.error) options = { ...options, ...ts.parseJsonConfigFileContent(read.config, host, dirname(setting.config)).options, noEmit: true };
  }
  // `tw16` is this package wherever the bot is, unless the bot's project has a tw16 of its own.
  if (!setting.ownTw16 && existsSync(types)) options = { ...options, paths: { ...options.paths, tw16: [types] } };
  const program = ts.createProgram([path], options);
  const errors: TypeErrorAt[] = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    if (d.category !== ts.DiagnosticCategory.Error) continue;
    const message = typeof d.messageText === 'string' ? d.messageText : d.messageText.messageText;
    if (!d.file || d.start === undefined) {
      errors.push({ file: path, line: 0, column: 0, code: d.code, message });
      continue;
    }
    const at = d.file.getLineAndCharacterOfPosition(d.start);
    errors.push({ file: resolve(d.file.fileName), line: at.line + 1, column: at.character + 1, code: d.code, message });
  }
  if (!errors.some((e) => MISSING_MODULE.has(e.code))) {
    const inputs: Record<string, string> = {};
    const read = [...program.getSourceFiles().filter((f) => !program.isSourceFileDefaultLibrary(f)).map((f) => resolve(f.fileName)), ...configFiles.map((f) => resolve(f))];
    for (const f of read) {
      const hash = fileHash(f);
      if (hash !== null) inputs[f] = hash;
    }
    if (inputs[path]) keep(path, { format: CACHE_FORMAT, path, setting, inputs, errors });
  }
  return { errors, cached: false };
}

/** Warnings for the type errors of each TypeScript bot of `paths` (absolute), at most `max` per bot, as lines. */
export function typeWarnings(paths: readonly string[], max = 5): string[] {
  const lines: string[] = [];
  for (const path of new Set(paths.filter((p) => /\.[cm]?ts$/.test(p)))) {
    const errors = typeErrors(path)?.errors;
    if (errors === undefined) {
      lines.push(`tw16: note: ${path} is TypeScript, and no TypeScript compiler is installed to check its types (tsx runs it unchecked)`);
      continue;
    }
    if (errors.length === 0) continue;
    lines.push(`tw16: warning: ${path} has ${errors.length} type error${errors.length === 1 ? '' : 's'} (tsx runs it as written; fix them, they may be bugs):`);
    for (const e of errors.slice(0, max)) lines.push(`  ${e.file}${e.line ? `:${e.line}:${e.column}` : ''}: error TS${e.code}: ${e.message}`);
    if (errors.length > max) lines.push(`  … and ${errors.length - max} more (npx tsc --noEmit --strict ${path})`);
  }
  return lines;
}
