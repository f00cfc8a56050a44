/**
 * Loading a bot module from a path: JavaScript (`.js`, `.mjs`, `.cjs`) as Node loads it;
 * TypeScript (`.ts`, `.mts`, `.cts`) through tsx's loader (`tsImport`, scoped to that import:
 * nothing else this process loads changes). A bot anywhere on disk may `import … from 'tw16'`:
 * when it has no tw16 of its own to resolve, that resolves to this one (resolve-hooks.ts for
 * ES modules; for CommonJS, which tsx makes of a `.ts` file outside an ES-module package, a
 * fallback in Node's CommonJS resolver, the technique of the module-alias package).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** This tw16's package.json: three levels up in a checkout (src/harness/players/), four in dist/. */
function ownPackageJson(): string | undefined {
  for (const rel of ['../../../package.json', '../../../../package.json']) {
    const url = new URL(rel, import.meta.url);
    try {
      if ((JSON.parse(readFileSync(url, 'utf8')) as { name?: string }).name === 'tw16') return fileURLToPath(url);
    } catch {
      // try the next
    }
  }
  return undefined;
}

/** The compiled hooks module: beside this file, or in dist/ when this runs from sources (vitest). */
function hooksUrl(): string {
  const here = import.meta.url;
  return here.endsWith('.ts') ? here.replace(/\/src\/harness\/players\/loader\.ts$/, '/dist/src/harness/players/resolve-hooks.js') : new URL('./resolve-hooks.js', here).href;
}

let hooked = false;

/** Make `tw16` resolvable from anywhere in this process (once). */
function resolveTw16Anywhere(): void {
  if (hooked) return;
  hooked = true;
  const pkg = ownPackageJson();
  if (!pkg) return;
  if (existsSync(fileURLToPath(hooksUrl()))) register(hooksUrl(), { data: { root: pathToFileURL(pkg).href } });
  // CommonJS: retry a failed require('tw16') from this package's root (a package may require itself by name).
  type Resolver = (request: string, parent: unknown, isMain: boolean, options: unknown) => string;
  const Module = createRequire(import.meta.url)('node:module') as { _resolveFilename: Resolver; _nodeModulePaths: (dir: string) => string[] };
  const original = Module._resolveFilename;
  const fromRoot = { id: pkg, filename: pkg, paths: Module._nodeModulePaths(dirname(pkg)) };
  Module._resolveFilename = function (request, parent, isMain, options) {
    try {
      return original.call(this, request, parent, isMain, options);
    } catch (err) {
      if (request === 'tw16' || request.startsWith('tw16/')) return original.call(this, request, fromRoot, isMain, options);
      throw err;
    }
  };
}

/** Import the bot module at absolute `path`. */
export async function importBotModule(path: string): Promise<unknown> {
  resolveTw16Anywhere();
  const url = pathToFileURL(path).href;
  if (/\.[cm]?ts$/.test(path)) {
    const { tsImport } = await import('tsx/esm/api');
    return tsImport(url, import.meta.url);
  }
  return import(url);
}
