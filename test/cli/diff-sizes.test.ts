/**
 * `tw16 diff` of two runs of different sizes compares hand by hand only the hands both hold, says
 * so, and does not count the other side's wins as changed rows ("0 of 48,000 hands changed,
 * 408,698 win rows differ" was the message before).
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

describe('tw16 diff of runs of different sizes', () => {
  it('compares the hands in both, counts the rest apart and explains', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-diff-sizes-'));
    const [small, big] = [join(dir, 'small'), join(dir, 'big')];
    const exp = join(ROOT, 'experiments/greedy-vs-random.json');
    expect((await run(['run', exp, '--hands', '4', '--workers', '0', '--quiet', '--out', small])).code).toBe(0);
    expect((await run(['run', exp, '--hands', '20', '--workers', '0', '--quiet', '--out', big])).code).toBe(0);
    const json = await run(['diff', small, big, '--json']);
    expect(json.code).toBe(1);
    const d = JSON.parse(json.out);
    expect(d.identical).toBe(false);
    expect(d.hands).toEqual({ a: 24, b: 120, compared: 24, changed: 0, onlyA: 0, onlyB: 96 });
    expect(d.wins.changed).toBe(0);
    expect(d.wins.unmatched).toBe(d.wins.b - d.wins.a);
    expect(d.deals).toEqual({ a: 4, b: 20 });
    const text = await run(['diff', small, big]);
    expect(text.out).toContain(`A: ${small} (4 deals, 24 hands)\nB: ${big} (20 deals, 120 hands)\n`);
    expect(text.out).toContain('different: of the 24 hands in both, 0 changed (0 win rows differ)\nand 96 only in B');
    expect(text.out).toContain('the runs differ in size, so those hands are not compared hand by hand');
  });
});
