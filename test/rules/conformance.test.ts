/**
 * The 56 seed cases of shared/conformance/p0-seed-examples.json (seed 000's examples and
 * counterexamples): every case must report exactly `expect` and none of `expectAbsent`.
 * Reads ../shared (the repo lives beside it) or, when absent, the copy in test/fixtures.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PATTERN_IDS, isCaseFailure, scoreCase } from '../../src/rules/index.js';
import { CONFORMANCE_FILE } from './helpers.js';

interface SeedCase {
  id: string;
  expect?: Record<string, number>;
  expectAbsent?: string[];
  [k: string]: unknown;
}
const cases: SeedCase[] = JSON.parse(readFileSync(CONFORMANCE_FILE, 'utf8')).cases;

describe('conformance: seed 000 examples and counterexamples', () => {
  it('has all 56 cases, each naming only known pattern ids', () => {
    expect(cases).toHaveLength(56);
    for (const c of cases) {
      for (const id of [...Object.keys(c.expect ?? {}), ...(c.expectAbsent ?? [])]) expect(PATTERN_IDS).toContain(id);
    }
  });

  for (const [i, c] of cases.entries()) {
    it(c.id, () => {
      const r = scoreCase(c, i);
      if (isCaseFailure(r)) throw new Error(`case failed to parse: ${r.error}`);
      expect(r.valid).toBe(true);
      expect(r.win).toBe(true); // p0 has no minimum
      if (c.expect) {
        expect(r.patterns).toEqual(c.expect); // exactly: no missing, no extra pattern
        expect(r.tai).toBe(Object.values(c.expect).reduce((a, b) => a + b, 0));
      }
      for (const id of c.expectAbsent ?? []) expect(r.patterns).not.toHaveProperty(id);
    });
  }
});
