import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { ArrowTableWriter } from '../../../src/harness/io/arrow.js';
import { BatchBuilder, type ColumnSpec } from '../../../src/harness/io/columns.js';
import { encodeJournalBatch, Journal, verifyJournal } from '../../../src/harness/io/journal.js';
import { readBatches, scanBatches, toBatch } from '../../../src/harness/io/read.js';

const SPECS: ColumnSpec[] = [
  { name: 'n', kind: 'u32', doc: '' },
  { name: 'neg', kind: 'i8', doc: '' },
  { name: 'flag', kind: 'bool', doc: '' },
  { name: 'name', kind: 'utf8', doc: '' },
  { name: 'x', kind: 'f64', doc: '' },
];

function rows(from: number, to: number) {
  const b = new BatchBuilder(SPECS, 4);
  for (let i = from; i < to; i++) {
    const r = b.addRow();
    b.set(r, 0, i);
    b.set(r, 1, -(i % 100));
    b.set(r, 2, i % 3 === 0);
    b.set(r, 3, i % 5 === 0 ? '' : `row-${i}-東`);
    b.set(r, 4, i / 7);
  }
  return b.build();
}

function write(dir: string, name: string, splits: number[], total: number): Buffer {
  const w = new ArrowTableWriter(join(dir, name), SPECS, new Map([['k', 'v']]), 7);
  let at = 0;
  for (const s of [...splits, total]) {
    const end = Math.min(s, total);
    if (end > at) w.append(rows(at, end));
    at = Math.max(at, end);
  }
  w.commit();
  return readFileSync(join(dir, name));
}

describe('batch builder', () => {
  it('setNonZero writes what set does column by column; rows it skips stay zero, strings never set stay empty, across growth', () => {
    const specs: ColumnSpec[] = [
      { name: 'a', kind: 'f32', doc: '' },
      { name: 's', kind: 'utf8', doc: '' },
      { name: 'b', kind: 'f32', doc: '' },
      { name: 'c', kind: 'i32', doc: '' },
      { name: 't', kind: 'utf8', doc: '' },
    ];
    const one = new BatchBuilder(specs, 2);
    const many = new BatchBuilder(specs, 2);
    const cols = Int32Array.from([0, 2, 3]);
    for (let i = 0; i < 37; i++) {
      const v = Float64Array.from([i % 3 === 0 ? 0 : i / 3, i % 4 === 0 ? 0 : -i * 1.1, i % 5 === 0 ? 0 : i]);
      const r1 = one.addRow();
      for (let j = 0; j < cols.length; j++) if (v[j] !== 0) one.set(r1, cols[j]!, v[j]!);
      const r2 = many.addRow();
      many.setNonZero(r2, cols, v);
      if (i % 2) {
        one.set(r1, 1, `r${i}`);
        many.set(r2, 1, `r${i}`);
      }
    }
    const a = one.build();
    const b = many.build();
    expect(b).toEqual(a);
    expect(b.rows).toBe(37);
    expect(Array.from(b.columns[0] as Float32Array).slice(0, 4)).toEqual([0, Math.fround(1 / 3), Math.fround(2 / 3), 0]);
    expect(Array.from(b.columns[3] as Int32Array).slice(0, 6)).toEqual([0, 1, 2, 3, 4, 0]);
    const t = b.columns[4] as { offsets: Int32Array; bytes: Uint8Array };
    expect(t.offsets).toHaveLength(38);
    expect(t.bytes).toHaveLength(0); // never set: every row's string empty
    const s = b.columns[1] as { offsets: Int32Array; bytes: Uint8Array };
    expect(new TextDecoder().decode(s.bytes.subarray(s.offsets[1], s.offsets[2]))).toBe('r1');
  });
});

describe('Arrow table writer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw16-arrow-'));

  it('writes the same bytes however the rows were split into appends', () => {
    const a = write(dir, 'a.arrow', [], 100);
    const b = write(dir, 'b.arrow', [1, 2, 3, 50, 51, 99], 100);
    const c = write(dir, 'c.arrow', [7, 14, 21, 28], 100);
    expect(b.equals(a)).toBe(true);
    expect(c.equals(a)).toBe(true);
  });

  it('batches of many rows, whose pending buffers grow as rows come, read back row for row (every column kind) and split into appends as they may', () => {
    const specs: ColumnSpec[] = [...SPECS, { name: 'fixed', kind: 'u8xN', size: 3, doc: '' }, { name: 'list', kind: 'u16list', doc: '' }];
    const many = (from: number, to: number) => {
      const b = new BatchBuilder(specs, 4);
      for (let i = from; i < to; i++) {
        const r = b.addRow();
        b.set(r, 0, i);
        b.set(r, 3, `r${i}`);
        b.set(r, 4, i / 3);
        b.setFixed(r, 5, [i & 255, (i >> 8) & 255, 7]);
        b.setList(r, 6, Array.from({ length: i % 4 }, (_, k) => i + k));
      }
      return b.build();
    };
    const file = (name: string, splits: number[]): Buffer => {
      const w = new ArrowTableWriter(join(dir, name), specs, new Map(), 5000);
      let at = 0;
      for (const end of [...splits, 12000]) {
        w.append(many(at, end));
        at = end;
      }
      w.commit();
      return readFileSync(join(dir, name));
    };
    const whole = file('g1.arrow', []);
    expect(file('g2.arrow', [1, 1000, 1030, 3000, 4999, 5001, 9000]).equals(whole)).toBe(true);
    const t = tableFromIPC(whole);
    expect(t.batches.map((b) => b.numRows)).toEqual([5000, 5000, 2000]);
    const wrong: number[] = [];
    for (let i = 0; i < 12000; i++) {
      const fixed = Array.from(t.getChild('fixed')!.get(i) as Iterable<number>);
      const list = Array.from(t.getChild('list')!.get(i) as Iterable<number>);
      const same = t.getChild('n')!.get(i) === i && t.getChild('name')!.get(i) === `r${i}` && t.getChild('x')!.get(i) === i / 3 && fixed.join() === [i & 255, (i >> 8) & 255, 7].join() && list.join() === Array.from({ length: i % 4 }, (_, k) => i + k).join();
      if (!same) wrong.push(i);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('writes an Arrow IPC file that reads back row for row, in fixed-size batches', () => {
    const bytes = write(dir, 'd.arrow', [33], 100);
    expect(bytes.subarray(0, 6).toString()).toBe('ARROW1');
    expect(bytes.subarray(bytes.length - 6).toString()).toBe('ARROW1');
    const t = tableFromIPC(bytes);
    expect(t.numRows).toBe(100);
    expect(t.batches.map((b) => b.numRows)).toEqual([...Array(14).fill(7), 2]);
    expect(t.schema.metadata.get('k')).toBe('v');
    expect(t.getChild('n')!.get(42)).toBe(42);
    expect(t.getChild('neg')!.get(42)).toBe(-42);
    expect(t.getChild('flag')!.get(42)).toBe(true);
    expect(t.getChild('flag')!.get(43)).toBe(false);
    expect(t.getChild('name')!.get(42)).toBe('row-42-東');
    expect(t.getChild('name')!.get(45)).toBe('');
    expect(t.getChild('x')!.get(42)).toBe(6);
    // Every row of every batch, the buffers of one batch being those of the next.
    const wrong: number[] = [];
    for (let i = 0; i < 100; i++) {
      const same = t.getChild('n')!.get(i) === i && t.getChild('neg')!.get(i) === -(i % 100) && t.getChild('flag')!.get(i) === (i % 3 === 0) && t.getChild('name')!.get(i) === (i % 5 === 0 ? '' : `row-${i}-東`) && t.getChild('x')!.get(i) === i / 7;
      if (!same) wrong.push(i);
    }
    expect(wrong).toEqual([]);
  });

  it('reads batches back into the same columnar form (resume copies them)', async () => {
    write(dir, 'e.arrow', [], 30);
    const w = new ArrowTableWriter(join(dir, 'f.arrow'), SPECS, new Map([['k', 'v']]), 7);
    for await (const rb of readBatches(join(dir, 'e.arrow'))) w.append(toBatch(rb, SPECS));
    w.append(rows(30, 100));
    w.commit();
    expect(readFileSync(join(dir, 'f.arrow')).equals(write(dir, 'g.arrow', [], 100))).toBe(true);
  });

  it('scans the batches readBatches reads, each into the same buffer, and names a damaged file', async () => {
    const file = join(dir, 'scan.arrow');
    const bytes = write(dir, 'scan.arrow', [10, 33], 100);
    const ref: unknown[][] = [];
    for await (const rb of readBatches(file)) ref.push(toBatch(rb, SPECS).columns.map((c) => structuredClone(c)));
    const got: unknown[][] = [];
    const buffers = new Set<ArrayBufferLike>();
    for await (const rb of scanBatches(file)) {
      got.push(toBatch(rb, SPECS).columns.map((c) => structuredClone(c)));
      buffers.add(rb.getChild('x')!.data[0]!.values.buffer);
      expect(rb.schema.metadata.get('k')).toBe('v');
    }
    expect(got).toHaveLength(15);
    expect(got).toEqual(ref);
    expect(buffers.size).toBe(1); // one buffer for every batch
    // Damaged files: one line naming the file and what is wrong, as an input error (exit 2).
    const scanAll = async (f: string): Promise<number> => {
      let n = 0;
      for await (const rb of scanBatches(f)) n += rb.numRows;
      return n;
    };
    const cut = join(dir, 'scan-cut.arrow');
    writeFileSync(cut, bytes.subarray(0, bytes.length - 200));
    await expect(scanAll(cut)).rejects.toThrow(/scan-cut\.arrow: not a readable Arrow IPC file/);
    const bad = join(dir, 'scan-bad.arrow');
    const b = Buffer.from(bytes);
    b.writeInt32LE(0x7fff0000, 12); // the first message's length
    writeFileSync(bad, b);
    await expect(scanAll(bad)).rejects.toThrow(/scan-bad\.arrow: not a readable Arrow IPC file/);
    const text = join(dir, 'scan-text.arrow');
    writeFileSync(text, 'hands,deal\n1,2\n'.repeat(10));
    await expect(scanAll(text)).rejects.toThrow(/scan-text\.arrow: not a readable Arrow IPC file/);
    expect(await scanAll(file)).toBe(100);
  });

  it('leaves nothing under the final name until commit', () => {
    const w = new ArrowTableWriter(join(dir, 'h.arrow'), SPECS, new Map(), 7);
    w.append(rows(0, 10));
    w.close();
    expect(() => readFileSync(join(dir, 'h.arrow'))).toThrow();
    expect(tableFromIPC(readFileSync(join(dir, 'h.arrow.tmp'))).numRows).toBe(10);
  });
});

describe('results/README.md', () => {
  it('documents every column of both files', async () => {
    const { HAND_COLUMNS, WIN_COLUMNS } = await import('../../../src/harness/results/records.js');
    const { PATTERN_IDS } = await import('../../../src/rules/types.js');
    const doc = readFileSync(new URL('../../../results/README.md', import.meta.url), 'utf8');
    const { LUCK_FEATURES } = await import('../../../src/engine/index.js');
    const patterns = new Set<string>(PATTERN_IDS);
    for (const c of [...HAND_COLUMNS, ...WIN_COLUMNS]) {
      if (patterns.has(c.name)) continue; // documented as one row: every pattern id of docs/rules.md#patterns
      // The luck features: one row for the naming rule, one per feature (of any seat).
      const luck = /^luck_[0-3]_(.+)$/.exec(c.name);
      if (luck) {
        expect(LUCK_FEATURES).toContain(luck[1]);
        expect(doc, c.name).toContain(`| \`${luck[1]}\` |`);
        continue;
      }
      expect(doc, c.name).toContain(`| \`${c.name}\` |`);
    }
    expect(doc).toContain('| `luck_<seat>_<feature>` |');
    expect(doc).toContain('`concealed_hand` … `seven_rob_one`');
  });
});

describe('journals and damaged files', () => {
  it('a journal reopened at its checkpoint drops what came after it and continues the same stream', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-journal-'));
    const path = join(dir, 't.partial.arrows');
    const meta = new Map([['k', 'v']]);
    const j = Journal.create(path, SPECS, meta);
    j.append(rows(0, 10));
    const mark = j.mark();
    j.append(rows(10, 15)); // appended after the checkpoint: a crash would leave it
    j.close();
    const check = { batch: () => undefined, end: () => undefined };
    const again = Journal.reopen(path, SPECS, meta, await verifyJournal(path, mark, check));
    again.append(rows(10, 20));
    const end = again.mark();
    again.close();
    const t = tableFromIPC(readFileSync(path));
    expect(t.numRows).toBe(20);
    expect(Array.from(t.getChild('n')!.toArray() as Uint32Array)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(end.rows).toBe(20);
    expect(end.bytes).toBe(readFileSync(path).length);
    await expect(verifyJournal(path, { ...end, rows: 19 }, check)).rejects.toThrow(/holds 20 rows, run-state\.json records 19/);
    await expect(verifyJournal(path, end, { batch: () => 'deal 3 out of place', end: () => undefined })).rejects.toThrow(/t\.partial\.arrows: deal 3 out of place/);
  });

  it('record batches encoded apart (in the workers) give the journal the same bytes, mark and hash as encoded by it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-journal-'));
    const meta = new Map([['tw16.experiment', '{"a long": "schema metadata that moves the first batch"}']]);
    const parts = [rows(0, 7), rows(7, 8), rows(8, 8), rows(8, 40)];
    const marks = [];
    for (const encoded of [false, true]) {
      const j = Journal.create(join(dir, `${encoded}.arrows`), SPECS, meta);
      // Mixed on purpose in the second journal: a batch the journal encodes itself between encoded ones.
      parts.forEach((b, i) => j.append(b, encoded && i !== 1 ? encodeJournalBatch(SPECS, b) : undefined));
      marks.push(j.mark());
      j.close();
    }
    expect(marks[1]).toEqual(marks[0]);
    expect(readFileSync(join(dir, 'true.arrows')).equals(readFileSync(join(dir, 'false.arrows')))).toBe(true);
    expect(encodeJournalBatch(SPECS, rows(0, 0))).toHaveLength(0);
    const t = tableFromIPC(readFileSync(join(dir, 'true.arrows')));
    expect(Array.from(t.getChild('name')!.toArray()).slice(5, 7)).toEqual(['', 'row-6-東']);
    expect(t.numRows).toBe(40);
    // A batch encoded from other rows would be caught: the bytes differ.
    expect(Buffer.from(encodeJournalBatch(SPECS, rows(0, 7))).equals(Buffer.from(encodeJournalBatch(SPECS, rows(1, 8))))).toBe(false);
  });

  it('a file that is not Arrow is bad input naming it, not an Arrow error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-arrow-'));
    const path = join(dir, 'hands.arrow');
    writeFileSync(path, Buffer.from('ARROW1\0\0this is not arrow at all, just bytes'));
    await expect(async () => {
      for await (const _ of readBatches(path)) void _;
    }).rejects.toThrow(/hands\.arrow: not a readable Arrow IPC file/);
  });
});
