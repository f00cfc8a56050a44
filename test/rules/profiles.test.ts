/** Profiles: built-ins, derivation with overrides, JSON files and validation errors. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROFILE_NAMES, ProfileError, getProfile } from '../../src/rules/index.js';
import { score } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tw16-profiles-'));
function file(name: string, content: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
}

describe('profiles', () => {
  it('has the five built-ins, p0 first (the default)', () => {
    expect(PROFILE_NAMES).toEqual(['p0', 'casual', 'table', 'full', 'flowers']);
    for (const n of PROFILE_NAMES) expect(getProfile(n).name).toBe(n);
  });
  it('built-ins are frozen', () => {
    const p = getProfile('p0');
    expect(Object.isFrozen(p) && Object.isFrozen(p.tai) && Object.isFrozen(p.allSequences)).toBe(true);
    expect(() => {
      (p.tai as Record<string, number>).all_pungs = 99;
    }).toThrow();
  });
  it('derives house rules from an object: {"extends": "p0", "tai": {"all_pungs": 6}}', () => {
    const house = getProfile({ extends: 'p0', tai: { all_pungs: 6 } });
    expect(house.tai.all_pungs).toBe(6);
    expect(house.tai.half_flush).toBe(4);
    const hand = { hand: '111555999m77s99s [333s]', win: '7s' };
    expect(score(hand).patterns.all_pungs).toBe(4);
    expect(getProfile('p0').tai.all_pungs).toBe(4); // the parent is untouched
  });
  it('a derived profile can turn a pattern off, change the minimum and 平胡 checks', () => {
    const p = getProfile({ extends: 'table', tai: { all_sequences: 0 }, minTai: 2, allSequences: { suitPair: true } });
    expect(p.tai.all_sequences).toBe(0);
    expect(p.minTai).toBe(2);
    expect(p.allSequences.suitPair).toBe(true);
    expect(p.allSequences.minWaits).toBe(0); // the rest of table's rule
  });
  it('loads a JSON file, whose extends may name another file beside it', () => {
    file('base.json', { extends: 'full', tai: { all_pungs: 5 } });
    const top = file('top.json', { extends: 'base.json', name: 'house', falseWinPenaltyTai: 10 });
    const p = getProfile(top);
    expect([p.name, p.tai.all_pungs, p.falseWinPenaltyTai, p.instantFlowerWins]).toEqual(['house', 5, 10, true]);
  });
  const bad: [string, unknown, RegExp][] = [
    ['an unknown pattern id', { tai: { all_chows: 2 } }, /tai\.all_chows: unknown pattern id/],
    ['a negative tai', { tai: { all_pungs: -1 } }, /tai\.all_pungs: must be a non-negative integer \(got -1\)/],
    ['a wrong tai type', { tai: { all_pungs: '4' } }, /tai\.all_pungs: must be a non-negative integer/],
    ['an unknown option', { minTaii: 1 }, /minTaii: unknown option/],
    ['a wrong option type', { dealerTai: 'yes' }, /dealerTai: must be "both", "winner" or "none"/],
    ['a wrong boolean', { autoSelfDrawWin: 1 }, /autoSelfDrawWin: must be true or false/],
    ['a bad payout', { payout: 'cash' }, /payout: must be "tai" or "point"/],
    ['a bad 平胡 option', { allSequences: { twoSided: true } }, /allSequences\.twoSided: unknown option/],
    ['a bad replacement', { replaces: { all_honors: ['all_pung'] } }, /replaces\.all_honors\[0\]: unknown pattern id/],
    ['an unknown parent', { extends: 'p1' }, /unknown rule profile "p1"/],
  ];
  for (const [what, spec, msg] of bad) {
    it(`rejects ${what}, naming the field (object and file)`, () => {
      expect(() => getProfile(spec as object)).toThrow(msg);
      const f = file(`bad-${what.replace(/\W+/g, '-')}.json`, spec);
      expect(() => getProfile(f)).toThrow(ProfileError);
      expect(() => getProfile(f)).toThrow(new RegExp(`profile ${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
      expect(() => getProfile(f)).toThrow(msg);
    });
  }
  it('rejects a missing file, bad JSON and an unknown name in one line', () => {
    expect(() => getProfile(join(dir, 'nope.json'))).toThrow(/cannot read profile file .*nope\.json: ENOENT/);
    expect(() => getProfile(file('broken.json', '{"tai": '))).toThrow(/broken\.json: not valid JSON/);
    expect(() => getProfile('house')).toThrow(/unknown rule profile "house"/);
  });
});
