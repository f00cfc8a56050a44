/**
 * A Python bot anywhere on disk imports the protocol helper (bots/examples/python/tw16bot.py)
 * without copying it: tw16 puts the helper's directory last on every bot program's PYTHONPATH.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PYTHON_HELPER_DIR, programEnv } from '../../../src/harness/players/process.js';
import { BIN, HAS_PYTHON, ROOT } from '../../support/programs.js';

describe('the Python helper on the path', () => {
  it('is last on PYTHONPATH, after what the user set, and in TW16_PYTHON', () => {
    expect(PYTHON_HELPER_DIR).toBe(join(ROOT, 'bots/examples/python'));
    expect(programEnv({ PYTHONPATH: '/mine' }).PYTHONPATH).toBe(`/mine:${PYTHON_HELPER_DIR}`);
    expect(programEnv({}).PYTHONPATH).toBe(PYTHON_HELPER_DIR);
    expect(programEnv({}).TW16_PYTHON).toBe(PYTHON_HELPER_DIR);
  });

  it.skipIf(!HAS_PYTHON)('a bot outside the repository imports tw16bot as it is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-py-'));
    writeFileSync(join(dir, 'mine.py'), 'import tw16bot\n\nclass Mine(tw16bot.Bot):\n    def decide(self, d):\n        return d["legal"][0]\n\ntw16bot.run(Mine())\n');
    const { PYTHONPATH: _, ...env } = process.env; // nothing of the user's on the path
    const args = ['run', join(ROOT, 'experiments/greedy-vs-random.json'), '--bots', 'cmd:python3 mine.py,greedy', '--hands', '2', '--workers', '1', '--quiet', '--out', join(dir, 'out')];
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
  });
});
