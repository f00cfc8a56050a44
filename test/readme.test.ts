/**
 * The commands of README.md and of every docs/ page run as printed, in order, on a fresh copy of
 * the checkout after the two quick-start commands (the build in dist/ stands for `npm install`). A
 * block is run when the line before it (blank lines aside) is a marker
 * `<!-- readme-test[: options] -->`:
 *
 * - no option: a `sh` block, each line that is not a comment run in order; each must exit 0;
 * - `exit N`: each line must exit N (`tw16 diff` of two different runs: 1);
 * - `python3`: as the first, only where python3 is;
 * - `file NAME`: the block is saved as NAME (a bot, a script); `; run COMMAND` then runs it;
 * - `python`: a Python block, run with a python that has pyarrow, polars and duckdb (python3, or
 *   $TW16_TEST_PYTHON); skipped, saying so, where there is none.
 *
 * The pages run in the order of PAGES, each in the same copy; each page is self-contained (no block
 * reads what another page's blocks wrote), so the order only makes the log readable. PAGES lists
 * every docs/*.md page with the fewest marked blocks it may have (what it has now): a page whose
 * blocks were lost, or a new page not listed, fails. `npx tw16` is this copy's bin/tw16.js (a
 * shell function stands in for npx, which test/cli/invocation.test.ts runs for real). This replaces
 * test/bots/readme.test.ts, which ran the two bot sections' commands; bots outside the repository
 * importing tw16 are test/harness/run/tables.test.ts's and python-helper.test.ts's.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_PYTHON, ROOT } from './support/programs.js';

interface Block {
  readonly file: string;
  readonly line: number;
  readonly lang: string;
  readonly options: string;
  readonly text: string;
}

/** The marked blocks of a markdown file, in order. */
function markedBlocks(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^<!-- readme-test(?::\s*(.*?))?\s*-->$/.exec(lines[i]!.trim());
    if (!m) continue;
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() === '') j++;
    const fence = /^```(\w*)$/.exec(lines[j] ?? '');
    if (!fence) throw new Error(`${file}:${i + 1}: a readme-test marker must come right before a code block`);
    const end = lines.findIndex((l, k) => k > j && l.startsWith('```'));
    out.push({ file, line: j + 1, lang: fence[1]!, options: m[1] ?? '', text: lines.slice(j + 1, end).join('\n') + '\n' });
    i = end;
  }
  return out;
}

/** A python that has pyarrow, polars and duckdb, or undefined. */
function dataPython(): string | undefined {
  for (const py of [process.env.TW16_TEST_PYTHON, 'python3']) {
    if (py && spawnSync(py, ['-c', 'import pyarrow, polars, duckdb']).status === 0) return py;
  }
  return undefined;
}

/** A fresh copy of the checkout: its tracked files, with the installed node_modules and the build linked in. */
function freshCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tw16-readme-'));
  const files = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\0').filter((f) => f && !f.startsWith('test/golden/'));
  for (const f of files) cpSync(join(ROOT, f), join(dir, f), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  symlinkSync(join(ROOT, 'dist'), join(dir, 'dist'));
  return dir;
}

/** The pages whose marked blocks run, in order, each with the fewest marked blocks it may have. */
const PAGES: ReadonlyArray<readonly [file: string, fewest: number]> = [
  ['README.md', 9],
  ['docs/scoring.md', 3],
  ['docs/bots.md', 6],
  ['docs/experiments.md', 1],
  ['docs/learning.md', 2],
  ['docs/clusters.md', 1],
  ['docs/reports.md', 1],
  // Nothing to run without a cluster, a long benchmark or code of one's own: each says so where it
  // shows a command (calibration and performance give the bench/ commands that made their figures).
  ['docs/api.md', 0],
  ['docs/calibration.md', 0],
  ['docs/development.md', 0],
  ['docs/faults.md', 0],
  ['docs/performance.md', 0],
  ['docs/protocol.md', 0],
  ['docs/rules.md', 0],
  ['results/README.md', 5],
];
const BLOCKS = PAGES.flatMap(([file]) => markedBlocks(file));
const PYTHON = dataPython();

describe('README and docs/ code blocks, run in order on a fresh copy', () => {
  it('every docs/ page is listed, and no page has fewer marked blocks than it had', () => {
    const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    expect(docs.filter((d) => !PAGES.some(([f]) => f === d))).toEqual([]);
    const fewer = PAGES.filter(([f, n]) => markedBlocks(f).length < n).map(([f, n]) => `${f}: ${markedBlocks(f).length} marked blocks, fewer than ${n}`);
    expect(fewer).toEqual([]);
    expect(BLOCKS.length).toBeGreaterThanOrEqual(19);
  });

  it(
    'every marked block runs as printed',
    () => {
      const dir = freshCopy();
      const { TW16_COMMAND: _, ...userEnv } = process.env;
      const npx = `npx() { if [ "$1" = tw16 ]; then shift; node ${JSON.stringify(join(dir, 'bin/tw16.js'))} "$@"; else command npx "$@"; fi; }`;
      const skipped: string[] = [];
      for (const b of BLOCKS) {
        const where = `${b.file}:${b.line}`;
        const opts = b.options;
        const file = /(?:^|;\s*)file\s+([^\s;]+)/.exec(opts)?.[1];
        const runCmd = /(?:^|;\s*)run\s+(.+)$/.exec(opts)?.[1];
        if (file) writeFileSync(join(dir, file), b.text);
        const commands: string[] = [];
        if (b.lang === 'python' && !file) {
          if (!PYTHON) {
            skipped.push(`${where} (no python with pyarrow, polars and duckdb: pip install them, or set TW16_TEST_PYTHON)`);
            continue;
          }
          const script = join(dir, `block-${b.line}.py`);
          writeFileSync(script, b.text);
          commands.push(`${JSON.stringify(PYTHON)} ${JSON.stringify(script)}`);
        } else if (runCmd) commands.push(runCmd);
        else if (!file) {
          if (/\bpython3\b/.test(opts) && !HAS_PYTHON) {
            skipped.push(`${where} (no python3)`);
            continue;
          }
          commands.push(...b.text.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#')));
        }
        const want = Number(/(?:^|;\s*)exit\s+(\d+)/.exec(opts)?.[1] ?? 0);
        for (const c of commands) {
          const r = spawnSync('sh', ['-c', `${npx}\n${c}`], { cwd: dir, env: userEnv, encoding: 'utf8', timeout: 600_000 });
          expect(r.status, `${where}: ${c}\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`).toBe(want);
        }
      }
      if (skipped.length) console.warn(`README blocks skipped:\n  ${skipped.join('\n  ')}`);
    },
    600_000,
  );
});
