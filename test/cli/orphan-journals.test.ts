/**
 * A run directory whose run-state.json was deleted still holds its journals; running into it
 * again must not silently discard them: it is refused (exit 2) until --force says so.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { ROOT } from '../support/programs.js';

afterEach(() => {
  process.exitCode = 0;
});

describe('journals without their run state', () => {
  it('are refused, naming them; --force discards them', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'tw16-orphan-')), 'out');
    const args = ['run', join(ROOT, 'test/fixtures/experiments/throws.json'), '--workers', '0', '--batch', '3', '--quiet', '--out', out];
    expect((await run(args)).code).toBe(1); // a bot error in hand 7: two jobs kept
    expect(existsSync(join(out, 'hands.partial.arrows'))).toBe(true);
    rmSync(join(out, 'run-state.json'));
    const again = await run(args);
    expect(again.code).toBe(2);
    expect(again.err).toBe(
      `tw16: ${out}: holds the journals of an unfinished run (hands.partial.arrows, wins.partial.arrows) but no run-state.json, so it cannot be resumed; discard them and start over with --force, or choose another --out\n`,
    );
    expect(existsSync(join(out, 'hands.partial.arrows'))).toBe(true);
    expect((await run([...args, '--continue'])).code).toBe(2);
    const forced = await run([...args, '--force']);
    expect(forced.code).toBe(1); // it ran (and met the bot error again)
    expect(existsSync(join(out, 'run-state.json'))).toBe(true);
  });
});
