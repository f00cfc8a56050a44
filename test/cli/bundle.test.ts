/**
 * The CLI's bundle (dist/cli/, scripts/bundle.ts; issue 29, start-up): bin/tw16.js runs it when it
 * is at least as new as the tsc build, else the modules of dist/src (never stale code); it writes
 * the bytes the modules write; and the package entry with everything below it stays out of it, so
 * a bot module on disk that imports `tw16` shares the harness' classes and tables.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SMALL = join(ROOT, 'test/fixtures/experiments/small.json');
const TRACE = join(ROOT, 'test/support/trace-imports.mjs');
const base = mkdtempSync(join(tmpdir(), 'tw16-bundle-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** `node ARGS` from the checkout; with the files the ES module loader loaded (absolute paths). */
function node(args: string[], trace?: string): { code: number; stdout: string; stderr: string; loaded: string[] } {
  const r = spawnSync(process.execPath, trace ? ['--import', TRACE, ...args] : args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, TW16_TRACE_IMPORTS: trace ?? '' } });
  let loaded: string[] = [];
  if (trace) {
    try {
      loaded = readFileSync(trace, 'utf8').split('\n').filter((u) => u.startsWith('file://')).map((u) => fileURLToPath(u));
    } catch {
      // nothing loaded
    }
  }
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, loaded };
}

describe('the CLI bundle', () => {
  it('holds no module of the package entry or below it: those load from dist/src, one copy shared with bot modules', () => {
    const inputs = JSON.parse(readFileSync(join(ROOT, 'dist/cli/inputs.json'), 'utf8')) as Record<string, string[]>;
    const bundled = Object.values(inputs).flat();
    expect(bundled).toContain('dist/src/cli/run.js');
    expect(bundled).toContain('dist/src/harness/run/run.js');
    expect(bundled.filter((f) => /^dist\/src\/(core|hand|rules|engine)\/|^dist\/src\/(index|version)\.js$/.test(f))).toEqual([]);
    const chunks = Object.keys(inputs).map((f) => readFileSync(join(ROOT, 'dist/cli', f), 'utf8'));
    expect(chunks.some((c) => c.includes('from "../src/engine/'))).toBe(true);
  });

  it('a 1-deal run through the bundle writes the bytes, and prints the lines, of one through the modules', () => {
    const viaBundle = join(base, 'bundle');
    const viaModules = join(base, 'modules');
    const b = node([join(ROOT, 'bin/tw16.js'), 'run', SMALL, '--hands', '1', '--out', viaBundle], join(base, 'trace-run'));
    expect(b.stderr).toBe('');
    expect(b.code).toBe(0);
    expect(b.loaded).toContain(join(ROOT, 'dist/cli/main.js'));
    expect(b.loaded).not.toContain(join(ROOT, 'dist/src/cli/main.js'));
    const probe = `const { main } = await import(${JSON.stringify(join(ROOT, 'dist/src/cli/main.js'))}); process.exitCode = await main(${JSON.stringify(['run', SMALL, '--hands', '1', '--out', viaModules])});`;
    const m = node(['--input-type=module', '-e', probe]);
    expect(m.stderr).toBe('');
    expect(m.code).toBe(0);
    for (const f of ['hands.arrow', 'wins.arrow', 'summary.json', 'report.md', 'report.html', 'manifest.json']) {
      expect(readFileSync(join(viaBundle, f)).equals(readFileSync(join(viaModules, f))), f).toBe(true);
    }
    const lines = (s: string, out: string): string => s.replaceAll(out, 'OUT').replace(/^\d+ hands in .*$/m, 'TIMING');
    expect(lines(b.stdout, viaBundle)).toBe(lines(m.stdout, viaModules));
  });

  it('bin/tw16.js runs the modules when the bundle is older than the tsc build or missing', () => {
    // A copy of bin/ and dist/cli beside links to this checkout's dist/src and node_modules.
    const copy = join(base, 'copy');
    mkdirSync(join(copy, 'dist'), { recursive: true });
    cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
    cpSync(join(ROOT, 'dist/cli'), join(copy, 'dist/cli'), { recursive: true });
    symlinkSync(join(ROOT, 'dist/src'), join(copy, 'dist/src'));
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const version = (n: number): ReturnType<typeof node> => node([join(copy, 'bin/tw16.js'), '--version'], join(base, `trace-version-${n}`));
    const fresh = version(1);
    expect(fresh.code).toBe(0);
    expect(fresh.loaded).toContain(join(copy, 'dist/cli/main.js'));
    expect(fresh.loaded).not.toContain(join(ROOT, 'dist/src/cli/main.js'));
    utimesSync(join(copy, 'dist/cli/main.js'), new Date(2000, 0, 1), new Date(2000, 0, 1));
    const stale = version(2);
    expect(stale).toMatchObject({ code: 0, stdout: fresh.stdout, stderr: '' });
    expect(stale.loaded).toContain(join(ROOT, 'dist/src/cli/main.js'));
    expect(stale.loaded.filter((f) => f.startsWith(join(copy, 'dist/cli')))).toEqual([]);
    rmSync(join(copy, 'dist/cli'), { recursive: true });
    const none = version(3);
    expect(none).toMatchObject({ code: 0, stdout: fresh.stdout, stderr: '' });
    expect(none.loaded).toContain(join(ROOT, 'dist/src/cli/main.js'));
  });
});
