/**
 * Type errors in a TypeScript bot. tsx runs a `.ts` bot as written, types stripped and never
 * checked, so a type error would otherwise go unseen; tw16 checks the bot with the TypeScript
 * compiler when one is installed (a checkout's dev dependency, or the bot project's own) and
 * reports the errors as warnings: they do not stop a run, the code runs as tsx runs it.
 *
 * The check is strict TypeScript on the bot's file and what it imports, with `tw16` resolving to
 * this package's types wherever the bot lives (as tw16 resolves it at run time: loader.ts), and
 * the bot's own tsconfig.json when there is one above it.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../../version.js';

/** One type error: where, and the compiler's message (one line). */
export interface TypeErrorAt {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly code: number;
  readonly message: string;
}

/** The TypeScript compiler the bot's project has, else this package's; undefined when neither is installed. */
function loadTypeScript(path: string): typeof import('typescript') | undefined {
  for (const from of [path, join(PACKAGE_ROOT, 'package.json')]) {
    try {
      return createRequire(from)('typescript') as typeof import('typescript');
    } catch {
      // try the next
    }
  }
  return undefined;
}

/**
 * The type errors of the TypeScript bot at absolute `path` (an empty list when it has none), or
 * undefined when no TypeScript compiler is installed to check it with.
 */
export function typeErrors(path: string): TypeErrorAt[] | undefined {
  const ts = loadTypeScript(path);
  if (!ts) return undefined;
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
  const config = ts.findConfigFile(dirname(path), ts.sys.fileExists);
  if (config) {
    const read = ts.readConfigFile(config, ts.sys.readFile);
    if (!read.error) options = { ...options, ...ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(config)).options, noEmit: true };
  }
  // `tw16` is this package wherever the bot is, unless the bot's project has a tw16 of its own.
  // (Looked up on disk: this process's resolver may already send `tw16` here, loader.ts.)
  let own = false;
  for (let dir = dirname(path); !own; dir = dirname(dir)) {
    own = existsSync(join(dir, 'node_modules', 'tw16', 'package.json'));
    if (dirname(dir) === dir) break;
  }
  if (!own && existsSync(types)) options = { ...options, paths: { ...options.paths, tw16: [types] } };
  const program = ts.createProgram([path], options);
  const out: TypeErrorAt[] = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    if (d.category !== ts.DiagnosticCategory.Error) continue;
    const message = typeof d.messageText === 'string' ? d.messageText : d.messageText.messageText;
    if (!d.file || d.start === undefined) {
      out.push({ file: path, line: 0, column: 0, code: d.code, message });
      continue;
    }
    const at = d.file.getLineAndCharacterOfPosition(d.start);
    out.push({ file: resolve(d.file.fileName), line: at.line + 1, column: at.character + 1, code: d.code, message });
  }
  return out;
}

/** Warnings for the type errors of each TypeScript bot of `paths` (absolute), at most `max` per bot, as lines. */
export function typeWarnings(paths: readonly string[], max = 5): string[] {
  const lines: string[] = [];
  for (const path of new Set(paths.filter((p) => /\.[cm]?ts$/.test(p)))) {
    const errors = typeErrors(path);
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
