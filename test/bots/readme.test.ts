/**
 * README "Writing a bot" and "Writing a bot in another language": the example bots as printed,
 * and every command of those sections run as printed — `npx tw16` is this package's bin, put on
 * the PATH here as `tw16` — from a directory outside the repository holding the example bot
 * and this repository's experiments/ and bots/ (so `my-bot.js` also proves that a bot anywhere
 * can import tw16).
 */
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_PYTHON, ROOT, sh } from '../support/programs.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The text of section `title` (a ### heading) up to the next heading of level ≤ 3 (outside code blocks). */
function section(title: string): string {
  const start = README.indexOf(`### ${title}\n`);
  if (start < 0) throw new Error(`README has no section "${title}"`);
  const lines = README.slice(start + title.length + 5).split('\n');
  let fenced = false;
  const end = lines.findIndex((l) => {
    if (l.startsWith('```')) fenced = !fenced;
    return !fenced && /^#{1,3} /.test(l);
  });
  return (end < 0 ? lines : lines.slice(0, end)).join('\n');
}

/** The fenced blocks of a language in a text. */
function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
}

function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tw16-readme-'));
  symlinkSync(join(ROOT, 'experiments'), join(dir, 'experiments'));
  symlinkSync(join(ROOT, 'bots'), join(dir, 'bots'));
  return dir;
}

function runAll(commands: string, dir: string): void {
  for (const line of commands.split('\n').filter((l) => l.trim() && !l.startsWith('#'))) {
    expect(line.startsWith('npx tw16 '), line).toBe(true);
    const r = sh(line.replace(/^npx tw16 /, 'tw16 '), dir);
    expect(r.code, `${line}\n${r.err}`).toBe(0);
    if (line.includes(' run ')) expect(r.out).toMatch(/hands in .* hands\/s/);
    else expect(r.out).toMatch(/^hand 3 · seed tw16-default-1/);
  }
}

describe('README: writing a bot', () => {
  it('the JavaScript example and its commands run as printed', () => {
    const text = section('Writing a bot');
    const [code] = blocks(text, 'js');
    const [commands] = blocks(text, 'sh');
    expect(code).toContain('// my-bot.js');
    const dir = workdir();
    writeFileSync(join(dir, 'my-bot.js'), code!);
    runAll(commands!, dir);
  }, 120_000);

  it.skipIf(!HAS_PYTHON)('the Python example and the commands of "Writing a bot in another language" run as printed', () => {
    const text = section('Writing a bot in another language');
    const [code] = blocks(text, 'python');
    const [commands] = blocks(text, 'sh');
    const dir = workdir();
    writeFileSync(join(dir, 'my_bot.py'), code!);
    runAll(commands!, dir);
    // The walk-through's bot, next to the helper it imports.
    const r = sh(`PYTHONPATH=bots/examples/python tw16 run experiments/default.json --bots 'cmd:python3 my_bot.py',greedy --hands 2 --out results/mine --force`, dir);
    expect(r.code, r.err).toBe(0);
  }, 120_000);
});
