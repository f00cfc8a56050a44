/**
 * Imports only point down (shared/DESIGN.md): core ← hand ← rules ← engine ← package entry ←
 * bots ← harness ← cli. Checked on the sources: nothing below the CLI imports from src/cli,
 * and bots import from src/ only through the package entry.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Known exceptions, each to be removed when its file is fixed: file → imported file. */
const ALLOWED = new Map<string, readonly string[]>([]);

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && /\.[mc]?[jt]s$/.test(d.name) && !d.name.endsWith('.d.ts'))
    .map((d) => relative(ROOT, join(d.parentPath, d.name)));
}

/** Relative import specifiers of a file, resolved to repository paths (`src/cli/errors.ts`). */
export function localImports(file: string, text: string): string[] {
  const out: string[] = [];
  const re = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) {
    const spec = m[1] ?? m[2]!;
    if (spec.startsWith('.')) out.push(relative(ROOT, resolve(ROOT, dirname(file), spec)).replace(/\.js$/, '.ts'));
  }
  return out;
}

function violations(dirs: readonly string[], bad: (target: string) => boolean): string[] {
  const found: string[] = [];
  for (const d of dirs) {
    for (const file of sources(d)) {
      for (const target of localImports(file, readFileSync(join(ROOT, file), 'utf8'))) {
        if (!bad(target)) continue;
        if (ALLOWED.get(file)?.some((p) => target.startsWith(p))) continue;
        found.push(`${file} imports ${target}`);
      }
    }
  }
  return found;
}

describe('architecture: imports only point down', () => {
  it('finds imports in every form the sources use (and so can fail)', () => {
    const text = [
      "import { a } from '../cli/x.js';",
      "import type { B } from '../cli/y.js';",
      "export { c } from '../cli/z.js';",
      "const m = await import('../cli/w.js');",
      "import '../cli/side-effect.js';",
      "import { d } from 'node:fs';",
    ].join('\n');
    expect(localImports('src/harness/run.ts', text)).toEqual(['src/cli/x.ts', 'src/cli/y.ts', 'src/cli/z.ts', 'src/cli/w.ts', 'src/cli/side-effect.ts']);
  });

  it('nothing under src/core, src/hand, src/rules, src/engine or src/harness imports from src/cli', () => {
    expect(violations(['src/core', 'src/hand', 'src/rules', 'src/engine', 'src/harness'], (t) => t.startsWith('src/cli/'))).toEqual([]);
  });

  it('bots import from src/ only through the package entry src/index.js', () => {
    expect(violations(['bots'], (t) => t.startsWith('src/') && t !== 'src/index.ts')).toEqual([]);
  });
});
