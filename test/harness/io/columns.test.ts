import { describe, expect, it } from 'vitest';
import { BatchBuilder, keepRows, type ColumnSpec, type ListColumn, type Utf8Column } from '../../../src/harness/io/columns.js';

const SPECS: ColumnSpec[] = [
  { name: 'n', kind: 'u32', doc: '' },
  { name: 'obs', kind: 'u8xN', size: 3, doc: '' },
  { name: 'legal', kind: 'u16list', doc: '' },
  { name: 'name', kind: 'utf8', doc: '' },
];

/** Row i: n = i, obs = [i, i+1, i+2], legal = i copies of 100+i, name = "r" repeated i times. */
function batch(n: number) {
  const b = new BatchBuilder(SPECS, 2);
  for (let i = 0; i < n; i++) {
    const r = b.addRow();
    b.set(r, 0, i);
    b.setFixed(r, 1, [i, i + 1, i + 2]);
    b.setList(r, 2, Array.from({ length: i }, () => 100 + i));
    b.set(r, 3, 'r'.repeat(i));
  }
  return b.build();
}

function row(b: ReturnType<typeof batch>, k: number) {
  const [n, obs, legal, name] = b.columns as [Uint32Array, Uint8Array, ListColumn, Utf8Column];
  return {
    n: n[k],
    obs: Array.from(obs.subarray(3 * k, 3 * k + 3)),
    legal: Array.from(legal.items.subarray(legal.offsets[k]!, legal.offsets[k + 1]!)),
    name: Buffer.from(name.bytes.subarray(name.offsets[k]!, name.offsets[k + 1]!)).toString(),
  };
}

describe('keepRows', () => {
  it('keeps whole rows of fixed-size and list columns beside plain and string ones', () => {
    const all = batch(7);
    const keep = [1, 0, 1, 1, 0, 0, 1];
    const kept = keepRows(all, keep);
    expect(kept.rows).toBe(4);
    const want = [0, 2, 3, 6].map((i) => row(all, i));
    expect([0, 1, 2, 3].map((k) => row(kept, k))).toEqual(want);
    expect((kept.columns[1] as Uint8Array).length).toBe(12);
    expect(row(kept, 3)).toEqual({ n: 6, obs: [6, 7, 8], legal: [106, 106, 106, 106, 106, 106], name: 'rrrrrr' });
  });

  it('returns the batch itself when every row is kept, and an empty one when none is', () => {
    const all = batch(3);
    expect(keepRows(all, [1, 1, 1])).toBe(all);
    const none = keepRows(all, [0, 0, 0]);
    expect(none.rows).toBe(0);
    expect((none.columns[1] as Uint8Array).length).toBe(0);
    expect(Array.from((none.columns[2] as ListColumn).offsets)).toEqual([0]);
  });
});
