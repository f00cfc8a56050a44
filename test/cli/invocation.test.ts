/**
 * The commands tw16 prints (replay, resume, merge, diff, score) run as printed: they start with
 * the words that started tw16 — `tw16` on the PATH, `npx tw16`, or `node …/bin/tw16.js` — so they
 * work right after the quick start (`npm install`, no `npm link`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
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
  it('TW16_COMMAND, then npx, then tw16 on the PATH when it is this one, else node and the path (relative inside the directory)', () => {
    const bin = mkdtempSync(join(tmpdir(), 'tw16-path-'));
    symlinkSync(BIN, join(bin, 'tw16'));
    const other = mkdtempSync(join(tmpdir(), 'tw16-other-'));
    expect(invokedAs(BIN, { TW16_COMMAND: 'apptainer exec tw16.sif tw16', npm_command: 'exec' }, ROOT)).toBe('apptainer exec tw16.sif tw16');
    expect(invokedAs('/home/u/.npm/_npx/501f9dccc3b05902/node_modules/.bin/tw16', { PATH: bin }, ROOT)).toBe('npx tw16');
    expect(invokedAs(BIN, { npm_command: 'exec', npm_lifecycle_script: "'tw16'", PATH: bin }, ROOT)).toBe('npx tw16');
    // A tw16 started by a tool npx started (npx vitest) inherits npm_command=exec: not npx's own.
    expect(invokedAs(BIN, { npm_command: 'exec', npm_lifecycle_script: "'vitest' 'run'", PATH: '/usr/bin' }, ROOT)).toBe('node bin/tw16.js');
    expect(invokedAs(BIN, { PATH: `/nonexistent:${bin}` }, other)).toBe('tw16');
    expect(invokedAs(BIN, { PATH: '/usr/bin' }, ROOT)).toBe('node bin/tw16.js');
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

  it('node bin/tw16.js prints node bin/tw16.js commands, which run as printed', () => {
    const r = shell(`node bin/tw16.js ${REPLAY.map((w) => `'${w}'`).join(' ')}`, ROOT);
    expect(r.code).toBe(1);
    const command = printed(r.err);
    expect(command).toMatch(/^node bin\/tw16\.js replay --seed throws-1 --hand 7 /);
    const again = shell(command, ROOT);
    expect(again.code).toBe(1);
    expect(printed(again.err)).toBe(command);
  });

  it('npx tw16 (in the checkout, after npm install) prints npx tw16 commands, which run as printed', () => {
    const r = shell(`npx tw16 ${REPLAY.map((w) => `'${w}'`).join(' ')}`, join(ROOT, 'experiments'));
    expect(r.code, r.err).toBe(1);
    const command = printed(r.err);
    expect(command).toMatch(/^npx tw16 replay --seed throws-1 --hand 7 /);
    const again = shell(command, join(ROOT, 'experiments'));
    expect(again.code).toBe(1);
    expect(printed(again.err)).toBe(command);
  });
});
