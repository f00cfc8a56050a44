/**
 * The CLI's bundle (issue 29, start-up): dist/cli/, the tsc build of src/cli/main.ts with the
 * harness, the built-in bots and the packages they load (Arrow, yargs) in a few files, which Node
 * loads in a fraction of the time it takes to resolve, read and link the ~300 modules they are
 * otherwise. Run by `npm run build` after tsc; bin/tw16.js uses it when it is at least as new as
 * the tsc build (else the modules in dist/src, as before: `npx tsc -p .` alone never leaves tw16
 * running stale code).
 *
 * What stays out, loaded from dist/ and node_modules as before:
 * - the package entry and every module below it (src/core, hand, rules, engine, index.ts,
 *   version.ts): a bot module on disk imports `tw16`, which is those files, and must share their
 *   classes and tables with the harness, not get a second copy of them;
 * - packages that locate files of their own at run time (piscina's worker, tsx's loader, the
 *   TypeScript compiler).
 *
 * Every module's `import.meta.url` in the bundle is its own file's URL, as when it is not bundled
 * (worker scripts, the built-in bots' directory, the table cache's source hash, yargs' locales).
 *
 *   node dist/scripts/bundle.js
 */
import { build, type Plugin } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = join(ROOT, 'dist');
/** Where the bundle goes; every chunk lands in this one directory (the relative URLs below assume it). */
export const BUNDLE_DIR = join(DIST, 'cli');
/** dist/src's modules that stay out of the bundle: the package entry and the layers below it. */
const ENGINE_SIDE = ['core', 'hand', 'rules', 'engine'].map((d) => join(DIST, 'src', d) + sep);
const ENGINE_FILES = new Set(['index.js', 'version.js'].map((f) => join(DIST, 'src', f)));
/** Packages that find files of their own beside their modules at run time. */
const EXTERNAL_PACKAGES = ['piscina', 'tsx', 'typescript'];

/** A relative URL from the bundle's directory to `file`, as an import specifier. */
function fromBundle(file: string): string {
  const rel = relative(BUNDLE_DIR, file).split(sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

const layout: Plugin = {
  name: 'tw16-layout',
  setup(b) {
    // The engine side stays a module of its own, imported from the bundle by its path in dist/src.
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const file = join(args.resolveDir, args.path);
      if (ENGINE_FILES.has(file) || ENGINE_SIDE.some((d) => file.startsWith(d))) return { path: fromBundle(file), external: true };
      return undefined;
    });
    // Each bundled module keeps its own import.meta.url (its file before bundling).
    b.onLoad({ filter: /\.(m?js)$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const own = `new URL(${JSON.stringify(fromBundle(args.path))}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', `(${own})`), loader: 'js' };
    });
  },
};

/**
 * Build the bundle into BUNDLE_DIR, with inputs.json beside it: each of its files → the modules in
 * it (paths relative to the checkout), to tell which modules a command loaded (test/cli/startup.test.ts).
 */
export async function bundle(): Promise<void> {
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  const { metafile } = await build({
    entryPoints: { main: join(DIST, 'src', 'cli', 'main.js') },
    outdir: BUNDLE_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunk-[hash]',
    external: EXTERNAL_PACKAGES.flatMap((p) => [p, `${p}/*`]),
    plugins: [layout],
    logLevel: 'warning',
    legalComments: 'none',
    metafile: true,
    absWorkingDir: ROOT,
  });
  const inputs = Object.fromEntries(Object.entries(metafile.outputs).map(([out, o]) => [relative(BUNDLE_DIR, join(ROOT, out)), Object.keys(o.inputs).sort()]));
  writeFileSync(join(BUNDLE_DIR, 'inputs.json'), `${JSON.stringify(inputs, null, 1)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await bundle();
