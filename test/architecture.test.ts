/**
 * Imports only point down (shared/DESIGN.md, docs/development.md): core ← hand ← rules ← engine ←
 * package entry ← bots ← harness ← cli, and inside the harness its wings in the order
 * io ← players ← experiment ← results ← analysis ← run ← view. A file may import files of its
 * own layer or of a layer to its left, never to its right; bots import src/ only through the
 * package entry; and there is no import circle anywhere in src/ or bots/ (type-only imports
 * count: a circle of types is still a circle a reader has to hold in their head).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The layers, lowest first: a path prefix each (or several, `|`-separated). A file belongs to
 * the first layer one of whose prefixes it starts with.
 */
export const LAYERS: readonly string[] = [
  'src/core/',
  'src/hand/',
  'src/rules/',
  'src/engine/',
  'src/index.ts|src/version.ts',
  'bots/',
  'src/harness/io/',
  'src/harness/players/',
  'src/harness/experiment/',
  'src/harness/results/',
  'src/harness/analysis/',
  'src/harness/run/',
  'src/harness/view/',
  'src/cli/',
];

/** Import circles known and not yet removed, each listed by its files (sorted); none is welcome. */
const KNOWN_CIRCLES: readonly (readonly string[])[] = [];

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

/** file → the repository files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

function graphOf(dirs: readonly string[]): ImportGraph {
  const g = new Map<string, string[]>();
  for (const d of dirs) for (const f of sources(d)) g.set(f, localImports(f, readFileSync(join(ROOT, f), 'utf8')));
  return g;
}

/** The index in `layers` of the layer `file` belongs to, or -1. */
export function layerOf(file: string, layers: readonly string[]): number {
  return layers.findIndex((l) => l.split('|').some((p) => file.startsWith(p)));
}

/** Every import that points up (or out of every layer), as `a imports b`. */
export function upwardImports(g: ImportGraph, layers: readonly string[]): string[] {
  const found: string[] = [];
  for (const [file, targets] of g) {
    const from = layerOf(file, layers);
    for (const t of targets) {
      const to = layerOf(t, layers);
      if (from < 0 || to < 0 || to > from) found.push(`${file} imports ${t}`);
    }
  }
  return found;
}

/** The import circles of `g`: its strongly connected components of two or more files (each sorted). */
export function circles(g: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w) && w !== v) continue;
      if (w === v) {
        out.push([v]);
        continue;
      }
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('architecture: imports only point down', () => {
  it('finds imports in every form the sources use', () => {
    const text = [
      "import { a } from '../cli/x.js';",
      "import type { B } from '../cli/y.js';",
      "export { c } from '../cli/z.js';",
      "const m = await import('../cli/w.js');",
      "import '../cli/side-effect.js';",
      "import { d } from 'node:fs';",
    ].join('\n');
    expect(localImports('src/harness/run/run.ts', text)).toEqual([
      'src/harness/cli/x.ts',
      'src/harness/cli/y.ts',
      'src/harness/cli/z.ts',
      'src/harness/cli/w.ts',
      'src/harness/cli/side-effect.ts',
    ]);
  });

  it('the checks fire on a graph that breaks the order or has a circle', () => {
    const bad: ImportGraph = new Map([
      ['src/engine/table.ts', ['src/harness/run/run.ts', 'src/core/tiles.ts']],
      ['src/harness/io/read.ts', ['src/harness/analysis/stats.ts']],
      ['src/harness/analysis/stats.ts', ['src/harness/io/read.ts']],
      ['src/core/tiles.ts', []],
      ['src/elsewhere.ts', []],
      ['src/core/wall.ts', ['src/elsewhere.ts']],
      ['src/hand/a.ts', ['src/hand/b.ts']],
      ['src/hand/b.ts', ['src/hand/c.ts']],
      ['src/hand/c.ts', ['src/hand/a.ts']],
    ]);
    expect(upwardImports(bad, LAYERS)).toEqual([
      'src/engine/table.ts imports src/harness/run/run.ts',
      'src/harness/io/read.ts imports src/harness/analysis/stats.ts',
      'src/core/wall.ts imports src/elsewhere.ts',
    ]);
    expect(circles(bad)).toEqual([
      ['src/harness/analysis/stats.ts', 'src/harness/io/read.ts'],
      ['src/hand/a.ts', 'src/hand/b.ts', 'src/hand/c.ts'],
    ]);
    // A correct graph passes both.
    const good: ImportGraph = new Map([
      ['src/cli/run.ts', ['src/harness/run/run.ts']],
      ['src/harness/run/run.ts', ['src/harness/io/read.ts', 'src/index.ts']],
      ['src/harness/io/read.ts', []],
      ['src/index.ts', ['src/engine/table.ts']],
      ['src/engine/table.ts', []],
    ]);
    expect(upwardImports(good, LAYERS)).toEqual([]);
    expect(circles(good)).toEqual([]);
  });

  const g = graphOf(['src', 'bots']);

  it('every file of src/ and bots/ belongs to a layer', () => {
    expect([...g.keys()].filter((f) => layerOf(f, LAYERS) < 0)).toEqual([]);
  });

  it('no import points up: core ← hand ← rules ← engine ← entry ← bots ← harness wings ← cli', () => {
    expect(upwardImports(g, LAYERS)).toEqual([]);
  });

  it('bots import from src/ only through the package entry src/index.js', () => {
    const found = [...g].flatMap(([f, ts]) => (f.startsWith('bots/') ? ts.filter((t) => t.startsWith('src/') && t !== 'src/index.ts').map((t) => `${f} imports ${t}`) : []));
    expect(found).toEqual([]);
  });

  it('no import circle anywhere in src/ or bots/', () => {
    const known = new Set(KNOWN_CIRCLES.map((c) => c.join(' ')));
    expect(circles(g).filter((c) => !known.has(c.join(' ')))).toEqual([]);
  });

  it('the known circles still exist (a fixed one must leave the list)', () => {
    const now = new Set(circles(g).map((c) => c.join(' ')));
    expect(KNOWN_CIRCLES.filter((c) => !now.has(c.join(' ')))).toEqual([]);
  });
});
