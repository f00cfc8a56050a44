/**
 * `--debug` prints stack traces with errors in every command (docs/experiments.md, `tw16 run` flags): for a bot
 * that throws, that means the bot's own stack — its file and line — in `run` (in a worker thread
 * and in-process) and in `replay`, not only tw16's. Without `--debug`: one line.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { ROOT } from '../support/programs.js';

afterEach(() => {
  process.exitCode = 0;
});

const EXPERIMENT = join(ROOT, 'test/fixtures/experiments/throws.json');
const BOT = join(ROOT, 'test/fixtures/bots/throws-at-7.mjs');
/** Where throws-at-7.mjs throws: line 5. */
const THROW_SITE = `${BOT}:5:`;

describe('--debug shows where a bot threw', () => {
  for (const workers of ['1', '0']) {
    it(`tw16 run --workers ${workers}: the bot's file and line with --debug, one line without`, async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'tw16-debug-'));
      const plain = await run(['run', EXPERIMENT, '--workers', workers, '--quiet', '--out', join(tmp, 'plain')]);
      expect(plain.code).toBe(1);
      expect(plain.err).toContain('boom in seat 3');
      expect(plain.err).not.toContain(THROW_SITE);
      expect(plain.err).not.toMatch(/\n\s+at /);
      const debug = await run(['run', EXPERIMENT, '--workers', workers, '--quiet', '--debug', '--out', join(tmp, 'debug')]);
      expect(debug.code).toBe(1);
      expect(debug.err).toContain('boom in seat 3');
      expect(debug.err).toContain(THROW_SITE);
    });
  }

  it("tw16 replay: the bot's file and line with --debug, one line without", async () => {
    const args = ['replay', '--seed', 'throws-1', '--hand', '7', '--bots', `random,${BOT},random,${BOT}`];
    const plain = await run(args);
    expect(plain.code).toBe(1);
    expect(plain.err.trim().split('\n')).toHaveLength(1);
    expect(plain.err).toContain('boom in seat 3');
    const debug = await run([...args, '--debug']);
    expect(debug.code).toBe(1);
    expect(debug.err).toContain(THROW_SITE);
  });
});
