/**
 * The CLI's bundle (issue 29, start-up): dist/cli/, the tsc build of src/cli/main.ts with the
 * harness and the built-in bots in a few ES module files (code-split: a command loads its own),
 * which Node loads in a fraction of the time it takes to resolve, read and link the ~300 modules
 * they are otherwise; and the packages they load (Arrow, yargs) each as one CommonJS file
 * (vendor-*.cjs) that src/cli/codecache.ts compiles with V8's code cache. Run by `npm run build`
 * after tsc; bin/tw16.js uses the bundle when it is at least as new as the tsc build (else the
 * modules in dist/src, as before: `npx tsc -p .` alone never leaves tw16 running stale code).
 *
 * What stays out, loaded from dist/ and node_modules as before:
 * - the package entry and every module below it (src/core, hand, rules, engine, index.ts,
 *   version.ts): a bot module on disk imports `tw16`, which is those files, and must share their
 *   classes and tables with the harness, not get a second copy of them;
 * - packages that locate files of their own at run time (piscina's worker, tsx's loader, the
 *   TypeScript compiler).
 *
 * Every bundled module keeps its own `import.meta.url` (its file before bundling: worker scripts,
 * the built-in bots' directory, the table cache's source hash, yargs' locales).
 *
 *   node dist/scripts/bundle.js
 */
import { build, type Plugin } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = join(ROOT, 'dist');
/** Where the bundle goes; every file lands in this one directory (the relative URLs below assume it). */
export const BUNDLE_DIR = join(DIST, 'cli');
/** dist/src's modules that stay out of the bundle: the package entry and the layers below it. */
const ENGINE_SIDE = ['core', 'hand', 'rules', 'engine'].map((d) => join(DIST, 'src', d) + sep);
const ENGINE_FILES = new Set(['index.js', 'version.js'].map((f) => join(DIST, 'src', f)));
/** Packages that find files of their own beside their modules at run time. */
const EXTERNAL_PACKAGES = ['piscina', 'tsx', 'typescript'];
/** Packages built into a CommonJS file of their own and loaded with the code cache: name → file in BUNDLE_DIR. */
const VENDOR: Readonly<Record<string, string>> = { 'apache-arrow': 'vendor-arrow.cjs', yargs: 'vendor-yargs.cjs' };

/** A relative path from the bundle's directory to `file`. */
function fromBundle(file: string): string {
  const rel = relative(BUNDLE_DIR, file).split(sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** In a CommonJS file: the URL of a path relative to the file's directory (defined by its banner, as a module may name its own `require`). */
const OWN_URL = '__tw16OwnUrl';
const OWN_URL_BANNER = `var ${OWN_URL} = (rel) => require("node:url").pathToFileURL(require("node:path").join(__dirname, rel)).href;`;

/**
 * Each bundled module's import.meta.url made its own file's URL again: from the ES module
 * bundle's URL, or (`cjs`) from the CommonJS file's directory.
 */
function ownUrls(format: 'esm' | 'cjs'): Plugin {
  return {
    name: 'tw16-own-urls',
    setup(b) {
      b.onLoad({ filter: /\.(m?js)$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const rel = JSON.stringify(fromBundle(args.path));
        const own = format === 'esm' ? `new URL(${rel}, import.meta.url).href` : `${OWN_URL}(${rel})`;
        return { contents: text.replaceAll('import.meta.url', `(${own})`), loader: 'js' };
      });
    },
  };
}

/** The ES module bundle's layout: the engine side imported from dist/src, the VENDOR packages from their CommonJS files. */
function layout(exportsOf: Readonly<Record<string, readonly string[]>>): Plugin {
  return {
    name: 'tw16-layout',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const file = join(args.resolveDir, args.path);
        if (ENGINE_FILES.has(file) || ENGINE_SIDE.some((d) => file.startsWith(d))) return { path: fromBundle(file), external: true };
        return undefined;
      });
      b.onResolve({ filter: /^[^./]/ }, (args) => (VENDOR[args.path] ? { path: args.path, namespace: 'vendor' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => {
        const names = exportsOf[args.path]!;
        const loader = JSON.stringify(join(DIST, 'src', 'cli', 'codecache.js'));
        return {
          resolveDir: ROOT,
          contents: [
            `import { requireCached } from ${loader};`,
            `import { fileURLToPath } from "node:url";`,
            `const m = requireCached(fileURLToPath(new URL(${JSON.stringify(`./${VENDOR[args.path]}`)}, import.meta.url)));`,
            ...(names.length ? [`export const { ${names.join(', ')} } = m;`] : []),
            `export default m.default;`,
          ].join('\n'),
        };
      });
    },
  };
}

/** Build the VENDOR packages; for each, its export names and the modules in it. */
async function vendor(): Promise<{ exportsOf: Record<string, string[]>; inputs: Record<string, string[]> }> {
  const exportsOf: Record<string, string[]> = {};
  const inputs: Record<string, string[]> = {};
  for (const [name, file] of Object.entries(VENDOR)) {
    const ns = (await import(name)) as Record<string, unknown>;
    exportsOf[name] = Object.keys(ns).filter((k) => k !== 'default' && /^[A-Za-z_$][\w$]*$/.test(k));
    const { metafile } = await build({
      stdin: { contents: `export * from ${JSON.stringify(name)};${'default' in ns ? ` export { default } from ${JSON.stringify(name)};` : ''}`, resolveDir: ROOT, sourcefile: `vendor-${name}.js` },
      outfile: join(BUNDLE_DIR, file),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      plugins: [ownUrls('cjs')],
      banner: { js: OWN_URL_BANNER },
      logLevel: 'error',
      legalComments: 'none',
      metafile: true,
      absWorkingDir: ROOT,
    });
    inputs[`vendor:${name}`] = Object.keys(metafile.inputs).filter((f) => !f.startsWith('<stdin>'));
  }
  return { exportsOf, inputs };
}

/**
 * Build the bundle into BUNDLE_DIR, with inputs.json beside it: each of its ES module files → the
 * modules in it (paths relative to the checkout; a VENDOR package's modules where the file loads
 * it), to tell which modules a command loaded (test/cli/startup.test.ts).
 */
export async function bundle(): Promise<void> {
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  const vendored = await vendor();
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
    plugins: [ownUrls('esm'), layout(vendored.exportsOf)],
    logLevel: 'warning',
    legalComments: 'none',
    metafile: true,
    absWorkingDir: ROOT,
  });
  const inputs = Object.fromEntries(
    Object.entries(metafile.outputs).map(([out, o]) => [relative(BUNDLE_DIR, join(ROOT, out)), Object.keys(o.inputs).flatMap((f) => vendored.inputs[f] ?? [f]).sort()]),
  );
  writeFileSync(join(BUNDLE_DIR, 'inputs.json'), `${JSON.stringify(inputs, null, 1)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await bundle();
