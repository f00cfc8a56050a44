/**
 * What can be named is listed (`tw16 list experiments|profiles|bots`), a shipped experiment runs by
 * its name from any directory (`tw16 run default`), and a run with another line-up (`--bots`) does
 * not claim the experiment's hypothesis about its own.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { tw16 } from '../support/programs.js';

afterEach(() => {
  process.exitCode = 0;
});

describe('tw16 list, and experiments by name', () => {
  it('lists the shipped experiments, the profiles and the bots; anything else is exit 2', async () => {
    const e = await run(['list', 'experiments']);
    expect(e.code).toBe(0);
    for (const name of ['default', 'greedy-vs-random', 'defensive-vs-greedy', 'pattern-frequencies']) expect(e.out).toMatch(new RegExp(`^${name} +20,000 deals: `, 'm'));
    const p = await run(['list', 'profiles']);
    for (const name of ['p0', 'casual', 'table', 'full', 'flowers']) expect(p.out).toMatch(new RegExp(`^${name} `, 'm'));
    const b = await run(['list', 'bots']);
    for (const name of ['random', 'greedy', 'defensive', 'value']) expect(b.out).toMatch(new RegExp(`^${name} `, 'm'));
    expect(b.out).toContain('never-wins');
    const bad = await run(['list', 'things']);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe('tw16: list: expected one of experiments, profiles, bots, got "things"\n');
  });

  it('tw16 run NAME runs a shipped experiment from any directory; an unknown name is one line, exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-named-'));
    const r = tw16(['run', 'greedy-vs-random', '--hands', '2', '--workers', '0', '--quiet', '--out', 'out'], dir);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'out', 'summary.json'), 'utf8')).experiment.name).toBe('greedy-vs-random');
    const bad = tw16(['run', 'no-such-experiment'], dir);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^tw16: no-such-experiment: no such experiment file, nor an experiment of that name/);
  });

  it('a --bots run prints and records no hypothesis about other bots', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tw16-named-'));
    const plain = await run(['run', 'greedy-vs-random', '--hands', '1', '--workers', '0', '--out', join(out, 'a')]);
    expect(plain.out).toMatch(/^greedy-vs-random: A bot that discards/);
    const r = await run(['run', 'greedy-vs-random', '--bots', 'value,defensive', '--hands', '1', '--workers', '0', '--out', join(out, 'b')]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^greedy-vs-random with --bots value,defensive\n/);
    expect(r.out).not.toContain('A bot that discards');
    expect(JSON.parse(readFileSync(join(out, 'b', 'summary.json'), 'utf8')).experiment.hypothesis).toBe('');
  });
});
