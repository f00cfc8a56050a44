/**
 * The commands tw16 prints (replay, resume, merge, diff, score) run as printed from any directory:
 * they start with `tw16` when that is this tw16 on the user's PATH, else `node /abs/…/bin/tw16.js`
 * — never `npx tw16`, which outside the checkout asks the public registry — so they work right
 * after the quick start (`npm install`, no `npm link`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asTyped, invokedAs, setInvocation } from '../../src/cli/invocation.js';
import { BIN, ROOT } from '../support/programs.js';

const BOT = join(ROOT, 'test/fixtures/bots/throws-at-7.mjs');
const REPLAY = ['replay', '--seed', 'throws-1', '--hand', '7', '--bots', `random,${BOT}`];
/** The environment of a user's shell: no TW16_COMMAND (the suite sets it), no tw16 on the PATH. */
const USER_ENV = (() => {
  const { TW16_COMMAND: _, ...env } = process.env;
  return { ...env, PATH: (env.PATH ?? '').split(':').filter((d) => !existsSync(join(d, 'tw16'))).join(':') };
})();

function shell(line: string, cwd: string): { code: number | null; out: string; err: string } {
  const r = spawnSync('sh', ['-c', line], { cwd, env: USER_ENV, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const printed = (err: string) => /reproduce: (.*)$/m.exec(err)![1]!;

describe('how tw16 was started', () => {
  it('TW16_COMMAND, then tw16 on the PATH when it is this one, else node and the absolute path (npx too)', () => {
    const bin = mkdtempSync(join(tmpdir(), 'tw16-path-'));
    symlinkSync(BIN, join(bin, 'tw16'));
    const other = mkdtempSync(join(tmpdir(), 'tw16-other-'));
    expect(invokedAs(BIN, { TW16_COMMAND: 'apptainer exec tw16.sif tw16', npm_command: 'exec' }, ROOT)).toBe('apptainer exec tw16.sif tw16');
    // npx: the link it ran is this tw16, but `npx tw16` elsewhere would reach the registry.
    const npxBin = join(mkdtempSync(join(tmpdir(), 'tw16-npx-')), 'node_modules', '.bin');
    mkdirSync(npxBin, { recursive: true });
    symlinkSync(BIN, join(npxBin, 'tw16'));
    expect(invokedAs(join(npxBin, 'tw16'), { npm_command: 'exec', npm_lifecycle_script: "'tw16'", PATH: `${npxBin}:/usr/bin` }, ROOT)).toBe(`node ${BIN}`);
    expect(invokedAs(BIN, { npm_command: 'exec', npm_lifecycle_script: "'vitest' 'run'", PATH: '/usr/bin' }, ROOT)).toBe(`node ${BIN}`);
    expect(invokedAs(BIN, { PATH: `/nonexistent:${bin}` }, other)).toBe('tw16');
    expect(invokedAs(BIN, { PATH: '/usr/bin' }, ROOT)).toBe(`node ${BIN}`);
    expect(invokedAs('bin/tw16.js', { PATH: '/usr/bin' }, ROOT)).toBe(`node ${BIN}`);
    expect(invokedAs(BIN, { PATH: '/usr/bin' }, other)).toBe(`node ${BIN}`);
    // Another tw16 on the PATH is not this one.
    const elsewhere = mkdtempSync(join(tmpdir(), 'tw16-path-'));
    symlinkSync('/bin/true', join(elsewhere, 'tw16'));
    expect(invokedAs(BIN, { PATH: elsewhere }, other)).toBe(`node ${BIN}`);
  });

  it('asTyped starts each printed command so, and leaves labels alone', () => {
    try {
      setInvocation('npx tw16');
      expect(asTyped('tw16: bot "x" threw; reproduce: tw16 replay --seed s --hand 1\ncontinue with: tw16 run e.json --resume')).toBe(
        'tw16: bot "x" threw; reproduce: npx tw16 replay --seed s --hand 1\ncontinue with: npx tw16 run e.json --resume',
      );
      expect(asTyped('tw16 play: the input ended; `tw16 score "123m" --win 1m`')).toBe('tw16 play: the input ended; `npx tw16 score "123m" --win 1m`');
    } finally {
      setInvocation('tw16');
    }
    expect(asTyped('reproduce: tw16 replay --seed s')).toBe('reproduce: tw16 replay --seed s');
  });

  it('node bin/tw16.js (relative, in the checkout) prints a command that runs as printed from another directory', () => {
    const r = shell(`node bin/tw16.js ${REPLAY.map((w) => `'${w}'`).join(' ')}`, ROOT);
    expect(r.code).toBe(1);
    const command = printed(r.err);
    expect(command.startsWith(`node ${BIN} replay --seed throws-1 --hand 7 `)).toBe(true);
    const again = shell(command, mkdtempSync(join(tmpdir(), 'tw16-elsewhere-')));
    expect(again.code, again.err).toBe(1);
    expect(printed(again.err)).toBe(command);
  });

  it('npx tw16 (in the checkout, after npm install) prints no npx: its command runs as printed from another directory', () => {
    const r = shell(`npx tw16 ${REPLAY.map((w) => `'${w}'`).join(' ')}`, join(ROOT, 'experiments'));
    expect(r.code, r.err).toBe(1);
    const command = printed(r.err);
    expect(command).not.toMatch(/npx/);
    expect(command.startsWith(`node ${BIN} replay --seed throws-1 --hand 7 `)).toBe(true);
    const again = shell(command, mkdtempSync(join(tmpdir(), 'tw16-elsewhere-')));
    expect(again.code, again.err).toBe(1);
    expect(printed(again.err)).toBe(command);
  });
});
