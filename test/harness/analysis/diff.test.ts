/** tw16 diff's matching of win rows: by hand and seat, not by position. */
import { describe, expect, it } from 'vitest';
import { compareWinRows } from '../../../src/harness/analysis/diff.js';
import { WIN_COLUMNS } from '../../../src/harness/results/records.js';

const col = (name: string) => WIN_COLUMNS.findIndex((c) => c.name === name);

/** A win row (WIN_COLUMNS order) for (deal, seat) with `tai`; other columns 0. */
function row(deal: number, seat: number, tai: number, profile = 'p0'): unknown[] {
  const r: unknown[] = WIN_COLUMNS.map(() => 0);
  r[col('deal')] = deal;
  r[col('seat')] = seat;
  r[col('tai')] = tai;
  r[col('profile')] = profile;
  return r;
}

async function* stream(rows: unknown[][]): AsyncGenerator<unknown[]> {
  yield* rows;
}

describe('compareWinRows', () => {
  it('a hand that gained a winner changes one row, not every row after it', async () => {
    const a = [row(0, 1, 3), row(1, 2, 4), row(2, 0, 1), row(3, 3, 2)];
    const b = [row(0, 1, 3), row(1, 2, 4), row(1, 3, 2), row(2, 0, 1), row(3, 3, 2)];
    expect(await compareWinRows(stream(a), stream(b))).toEqual({ a: 4, b: 5, changed: 1, unmatched: 0 });
  });

  it('rows of one hand match by seat whatever their order; a changed tai counts; the profile label does not', async () => {
    const a = [row(5, 1, 3), row(5, 3, 2), row(6, 0, 8)];
    const b = [row(5, 3, 2, 'full'), row(5, 1, 3, 'full'), row(6, 0, 9, 'full')];
    expect(await compareWinRows(stream(a), stream(b))).toEqual({ a: 3, b: 3, changed: 1, unmatched: 0 });
  });

  it('hands present on one side only count every row as changed', async () => {
    expect(await compareWinRows(stream([row(0, 0, 1)]), stream([row(1, 0, 1), row(1, 2, 1)]))).toEqual({ a: 1, b: 2, changed: 3, unmatched: 0 });
    expect(await compareWinRows(stream([]), stream([]))).toEqual({ a: 0, b: 0, changed: 0, unmatched: 0 });
  });

  it('rows of hands on one side only (a run of another size) are counted apart, not as changed', async () => {
    const oneSided = new Set(['1/0/0/0']);
    expect(await compareWinRows(stream([row(0, 0, 1)]), stream([row(0, 0, 1), row(1, 0, 1), row(1, 2, 1)]), oneSided)).toEqual({ a: 1, b: 3, changed: 0, unmatched: 2 });
  });
});
