/**
 * Reading our Arrow files back, one record batch at a time (memory stays at one batch
 * whatever the file size): for resuming a run, for statistics and for rescoring.
 */
import { open } from 'node:fs/promises';
import { RecordBatchReader, type RecordBatch } from 'apache-arrow';
import { InputError, IoError, isSystemError } from '../../core/errors.js';
import { allocate, width, type Batch, type ColumnData, type ColumnSpec } from './columns.js';
import { ioAsync } from './files.js';

/** An Arrow error while reading `path` as what it is: a file that is not what it should be (exit 2). */
function unreadable(path: string, err: unknown): unknown {
  if (err instanceof InputError || err instanceof IoError || isSystemError(err)) return err;
  return new InputError(`${path}: not a readable Arrow IPC file (${err instanceof Error ? err.message : String(err)})`);
}

/** Every record batch of an Arrow IPC file, in order. */
export async function* readBatches(path: string): AsyncGenerator<RecordBatch> {
  const handle = await ioAsync(path, 'open', () => open(path, 'r'));
  try {
    let reader;
    try {
      reader = await RecordBatchReader.from(handle);
      await reader.open();
    } catch (err) {
      throw unreadable(path, err);
    }
    const batches = reader[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<RecordBatch>;
      try {
        next = await batches.next();
      } catch (err) {
        throw unreadable(path, err);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await handle.close();
  }
}

/** The schema metadata of an Arrow file. */
export async function readMetadata(path: string): Promise<Map<string, string>> {
  const handle = await ioAsync(path, 'open', () => open(path, 'r'));
  try {
    const reader = await RecordBatchReader.from(handle);
    await reader.open();
    return new Map(reader.schema.metadata);
  } catch (err) {
    throw unreadable(path, err);
  } finally {
    await handle.close();
  }
}

/**
 * A record batch as our columnar Batch (columns in `specs` order, located by name). A column
 * newer than the file reads as its `absentAs` value (e.g. rescoring a result written before it).
 */
export function toBatch(rb: RecordBatch, specs: readonly ColumnSpec[]): Batch {
  const columns: ColumnData[] = specs.map((spec) => {
    const child = rb.getChild(spec.name);
    if (!child && spec.absentAs !== undefined && spec.kind !== 'utf8' && spec.kind !== 'u16list') {
      const filled = allocate(spec.kind, rb.numRows * width(spec));
      filled.fill(Number(spec.absentAs));
      return filled;
    }
    if (!child) throw new Error(`column "${spec.name}" missing from the file`);
    const data = child.data[0]!;
    const offset = data.offset;
    const n = rb.numRows;
    if (spec.kind === 'utf8') {
      const offs = data.valueOffsets as Int32Array;
      const base = offs[offset]!;
      const offsets = new Int32Array(n + 1);
      for (let i = 0; i <= n; i++) offsets[i] = offs[offset + i]! - base;
      return { offsets, bytes: (data.values as Uint8Array).slice(base, base + offsets[n]!) };
    }
    // A batch of no rows (a journal that is only its schema reads as one) may come without list children.
    if (n === 0 && spec.kind === 'u8xN') return new Uint8Array(0);
    if (n === 0 && spec.kind === 'u16list') return { offsets: new Int32Array(1), items: new Uint16Array(0) };
    if (spec.kind === 'u8xN') {
      const items = data.children[0]!;
      const size = spec.size!;
      const from = (items.offset + offset * size);
      return (items.values as Uint8Array).slice(from, from + n * size);
    }
    if (spec.kind === 'u16list') {
      const offs = data.valueOffsets as Int32Array;
      const base = offs[offset]!;
      const offsets = new Int32Array(n + 1);
      for (let i = 0; i <= n; i++) offsets[i] = offs[offset + i]! - base;
      const items = data.children[0]!;
      return { offsets, items: (items.values as Uint16Array).slice(items.offset + base, items.offset + base + offsets[n]!) };
    }
    if (spec.kind === 'bool') {
      const bits = data.values as Uint8Array;
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const j = offset + i;
        out[i] = (bits[j >> 3]! >> (j & 7)) & 1;
      }
      return out;
    }
    return (data.values as Uint8Array).slice(offset, offset + n);
  });
  return { rows: rb.numRows, columns };
}

/** Column accessors by name over one record batch, for readers that go row by row. */
export function columnsOf(rb: RecordBatch): (name: string) => ArrayLike<number> & { [i: number]: number } {
  return (name) => {
    const child = rb.getChild(name);
    if (!child) throw new Error(`column "${name}" missing from the file`);
    return child.toArray() as ArrayLike<number> & { [i: number]: number };
  };
}

const decoder = new TextDecoder();

/**
 * The strings of a utf8 column, decoding each distinct value once: our string columns hold a
 * handful of distinct values (bot names, outcomes, profiles), so rows are matched byte for byte
 * against the values seen so far instead of being decoded one by one.
 */
export function utf8Values(rb: RecordBatch, name: string): string[] {
  const child = rb.getChild(name);
  if (!child) throw new Error(`column "${name}" missing from the file`);
  const data = child.data[0]!;
  return utf8Strings(data.valueOffsets as Int32Array, data.values as Uint8Array, data.offset, rb.numRows);
}

/**
 * Rows `base … base + rows − 1` of strings in Arrow layout (value i is bytes[offs[i] .. offs[i+1])),
 * each distinct value decoded once: the columns that repeat a few values (bot names, outcomes)
 * are read at the cost of a byte comparison a row.
 */
export function utf8Strings(offs: Int32Array, bytes: Uint8Array, base: number, rows: number): string[] {
  const seenBytes: Uint8Array[] = [];
  const seenStrings: string[] = [];
  const out = new Array<string>(rows);
  for (let i = 0; i < rows; i++) {
    const start = offs[base + i]!;
    const end = offs[base + i + 1]!;
    const len = end - start;
    let found = -1;
    for (let k = 0; k < seenBytes.length && found < 0; k++) {
      const b = seenBytes[k]!;
      if (b.length !== len) continue;
      let same = true;
      for (let j = 0; j < len; j++) {
        if (b[j] !== bytes[start + j]) {
          same = false;
          break;
        }
      }
      if (same) found = k;
    }
    if (found < 0) {
      const b = bytes.slice(start, end);
      seenBytes.push(b);
      seenStrings.push(decoder.decode(b));
      found = seenBytes.length - 1;
    }
    out[i] = seenStrings[found]!;
  }
  return out;
}
