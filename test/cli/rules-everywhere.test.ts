/**
 * `--rules` takes the same values everywhere (docs/scoring.md): a profile name,
 * a house-rule .json file or inline JSON — in `run` (where it replaces the experiment's rule arms,
 * a list giving several), `score`, `rescore`, `replay` and `play`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { ROOT } from '../support/programs.js';

afterEach(() => {
  process.exitCode = 0;
});

const EXPERIMENT = join(ROOT, 'experiments/greedy-vs-random.json');
const HOUSE = '{"extends":"p0","tai":{"all_pungs":6},"minTai":1}';

/** The profiles of a result's arms, from its summary. */
function armProfiles(dir: string): string[] {
  return (JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { arms: { profile: string }[] }).arms.map((a) => a.profile);
}

describe('--rules everywhere', () => {
  it('tw16 run --rules replaces the experiment\'s rule arms: a name, inline JSON, a list, a file', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'tw16-rules-'));
    const one = await run(['run', EXPERIMENT, '--rules', 'full', '--hands', '2', '--workers', '0', '--quiet', '--out', join(tmp, 'full')]);
    expect(one.err).toBe('');
    expect(one.code).toBe(0);
    expect(armProfiles(join(tmp, 'full'))).toEqual(['full']);

    const inline = await run(['run', EXPERIMENT, '--rules', HOUSE, '--hands', '2', '--workers', '0', '--quiet', '--out', join(tmp, 'inline')]);
    expect(inline.code, inline.err).toBe(0);
    expect(armProfiles(join(tmp, 'inline'))).toEqual(['p0+overrides']);

    const file = join(tmp, 'house.json');
    writeFileSync(file, JSON.stringify({ extends: 'table', name: 'my-house', tai: { all_pungs: 5 } }));
    const list = await run(['run', EXPERIMENT, '--rules', `p0,${file}`, '--hands', '2', '--workers', '0', '--quiet', '--out', join(tmp, 'list')]);
    expect(list.code, list.err).toBe(0);
    expect(armProfiles(join(tmp, 'list'))).toEqual(['p0', 'my-house']);
  });

  it('tw16 run --rules with a bad profile is one line naming the flag (exit 2)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'tw16-rules-'));
    const bad = await run(['run', EXPERIMENT, '--rules', 'nope', '--hands', '2', '--workers', '0', '--quiet', '--out', join(tmp, 'x')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^tw16: --rules: .*unknown rule profile "nope"/);
    expect(bad.err).not.toContain(EXPERIMENT);
    const json = await run(['run', EXPERIMENT, '--rules', '{"extends": ', '--hands', '2', '--workers', '0', '--quiet', '--out', join(tmp, 'y')]);
    expect(json.code).toBe(2);
    expect(json.err).toMatch(/^tw16: --rules: .*not valid JSON/);
  });

  it('tw16 score --rules takes inline JSON, as replay and play do', async () => {
    // 碰碰胡 at 6 tai in the house rules instead of 4.
    const hand = ['score', '111m222p333s444m777p5z', '--win', '5z', '--self-draw'];
    const plain = await run([...hand, '--json']);
    expect(plain.code, plain.err).toBe(0);
    const house = await run([...hand, '--rules', HOUSE, '--json']);
    expect(house.code, house.err).toBe(0);
    expect(JSON.parse(house.out).patterns.all_pungs).toBe(6);
    expect(JSON.parse(plain.out).patterns.all_pungs).toBe(4);
    const bad = await run([...hand, '--rules', '{"extends":"p0","tai":{"nope":1}}']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('nope');
  });

  it('tw16 rescore --rules takes inline JSON', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'tw16-rules-'));
    const from = join(tmp, 'run');
    expect((await run(['run', EXPERIMENT, '--hands', '4', '--workers', '0', '--quiet', '--out', from])).code).toBe(0);
    const r = await run(['rescore', from, '--rules', HOUSE, '--out', join(tmp, 'house')]);
    expect(r.code, r.err).toBe(0);
    expect(armProfiles(join(tmp, 'house'))).toEqual(['p0+overrides']);
  });
});
