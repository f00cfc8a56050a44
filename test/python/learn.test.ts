/**
 * examples/learn: the whole loop runs from its README as printed — collect greedy's decisions,
 * train the policy, play it as a bot program against random and greedy — scaled down (20 hands,
 * one epoch of a small network) so that CI runs it in seconds. The full-size numbers are in the
 * README, with the commands that produced them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/programs.js';
import { pythonWithNumpy } from '../support/python.js';

const PY = pythonWithNumpy();

describe('examples/learn', () => {
  it.skipIf(!PY)('the README\'s commands run end to end, scaled down', () => {
    const readme = readFileSync(join(ROOT, 'examples/learn/README.md'), 'utf8');
    const block = /```sh\n([\s\S]*?)```/.exec(readme)![1]!;
    const commands = block.split('\n').filter((l) => l.trim() !== '');
    expect(commands).toHaveLength(3);
    const tmp = mkdtempSync(join(tmpdir(), 'tw16-learn-'));
    const policy = join(tmp, 'policy.npz');
    const scaled = commands.map((c) => {
      let line = c.replaceAll('results/', `${tmp}/results/`).replace('examples/learn/policy.npz', policy).replace(/^python3 /, `${PY} `);
      if (line.includes('collect.json')) line += ' --hands 20 --quiet';
      if (line.includes('train.py')) line += ' --epochs 1 --hidden 32';
      if (line.includes('evaluate.json')) line += ' --hands 4 --workers 1';
      return line;
    });
    for (const line of scaled) {
      const r = spawnSync('sh', ['-c', line], { cwd: ROOT, encoding: 'utf8', timeout: 600_000, env: { ...process.env, TW16_LEARN_POLICY: policy } });
      expect(r.status, `${line}\n${r.stderr}`).toBe(0);
      if (line.includes('train.py')) expect(r.stdout).toMatch(/held-out agreement with greedy \d+\.\d%/);
    }
    const summary = JSON.parse(readFileSync(join(tmp, 'results/learn-eval/summary.json'), 'utf8'));
    expect(summary.arms[0].bots.map((b: { bot: string }) => b.bot).sort()).toEqual(['greedy', 'learned', 'random']);
    expect(summary.arms[0].paired.some((p: { a: string; b: string }) => p.a === 'learned' && p.b === 'random')).toBe(true);
  }, 900_000);
});
