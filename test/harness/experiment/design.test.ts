/**
 * League designs (src/harness/experiment/design.ts): for every league size, a balanced incomplete
 * block design with blocks of four — every bot at the same number of tables, every pair of bots at
 * the same number of tables — and the checker itself fires on a design that is not balanced.
 */
import { describe, expect, it } from 'vitest';
import { LEAGUE_MAX, LEAGUE_MIN, leagueDesign } from '../../../src/harness/experiment/design.js';

/** Why `blocks` is not a 2-(v, 4, λ) design, or undefined. */
function unbalanced(v: number, lambda: number, blocks: readonly (readonly number[])[]): string | undefined {
  const r = (lambda * (v - 1)) / 3;
  const per = new Array<number>(v).fill(0);
  const pair = new Map<string, number>();
  for (const b of blocks) {
    if (b.length !== 4 || new Set(b).size !== 4) return `block ${b.join(',')} is not four bots`;
    if (b.some((x) => !Number.isInteger(x) || x < 0 || x >= v)) return `block ${b.join(',')} names a bot outside 0..${v - 1}`;
    for (const x of b) per[x]!++;
    for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) {
      const key = `${Math.min(b[i]!, b[j]!)},${Math.max(b[i]!, b[j]!)}`;
      pair.set(key, (pair.get(key) ?? 0) + 1);
    }
  }
  const badBot = per.findIndex((c) => c !== r);
  if (badBot >= 0) return `bot ${badBot} sits at ${per[badBot]} tables, not ${r}`;
  for (let i = 0; i < v; i++) for (let j = i + 1; j < v; j++) if ((pair.get(`${i},${j}`) ?? 0) !== lambda) return `bots ${i} and ${j} meet ${pair.get(`${i},${j}`) ?? 0} times, not ${lambda}`;
  return undefined;
}

describe('league designs', () => {
  for (let v = LEAGUE_MIN; v <= LEAGUE_MAX; v++) {
    it(`${v} bots: every bot at r tables, every pair at λ, b = v·r/4 tables`, () => {
      const d = leagueDesign(v);
      expect(d.v).toBe(v);
      expect(unbalanced(v, d.lambda, d.blocks)).toBeUndefined();
      expect(d.blocks.length).toBe((v * ((d.lambda * (v - 1)) / 3)) / 4);
      expect(d.name).toMatch(new RegExp(`^BIBD\\(${v},4,${d.lambda}\\), ${d.blocks.length} tables`));
    });
  }

  it('the smallest λ for which a design can exist (λ(v − 1) ≡ 0 mod 3, λv(v − 1) ≡ 0 mod 12)', () => {
    for (let v = LEAGUE_MIN; v <= LEAGUE_MAX; v++) {
      let least = 1;
      while ((least * (v - 1)) % 3 !== 0 || (least * v * (v - 1)) % 12 !== 0) least++;
      expect(leagueDesign(v).lambda).toBe(least);
    }
  });

  it('the checker fires on a design that is not balanced', () => {
    const d = leagueDesign(7);
    const broken = d.blocks.map((b) => [...b]);
    broken[0] = [0, 1, 2, 3];
    expect(unbalanced(7, d.lambda, broken)).toMatch(/meet|sits at/);
    expect(unbalanced(7, d.lambda, [[0, 0, 1, 2], ...d.blocks.slice(1)])).toMatch(/not four bots/);
  });

  it('refuses a league size it has no design for', () => {
    expect(() => leagueDesign(4)).toThrow(/5 to 16 bots, not 4/);
    expect(() => leagueDesign(17)).toThrow(/not 17/);
  });
});
