/**
 * Every bot `tw16 list bots` names resolves by name in `tw16 run` as in replay: the adversarial
 * test bots too (their code lives in bots/adversarial, not in a file of their own).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADVERSARIAL } from '../../bots/index.js';
import { tw16 } from '../support/programs.js';

describe('built-in bots in tw16 run', () => {
  it('the adversarial bots play a run by name (a league of all six)', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'tw16-adversarial-')), 'r');
    const names = Object.keys(ADVERSARIAL);
    expect(names.length).toBeGreaterThanOrEqual(5); // a league of them: one run
    const r = tw16(['run', 'greedy-vs-random', '--bots', names.join(','), '--hands', '2', '--workers', '0', '--quiet', '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).experiment.bots.map((b: { name: string }) => b.name)).toEqual(names);
  });

  it('a pair with a built-in, as the issue tried it (--bots konger,greedy)', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'tw16-adversarial-')), 'r');
    const r = tw16(['run', 'greedy-vs-random', '--bots', 'konger,greedy', '--hands', '2', '--workers', '0', '--quiet', '--out', out]);
    expect(r.code, r.err).toBe(0);
  });
});
