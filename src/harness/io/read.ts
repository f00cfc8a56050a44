/**
 * Reading our Arrow files back, one record batch at a time (memory stays at one batch
 * whatever the file size): for resuming a run, for statistics and for rescoring.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { Message, MessageHeader, RecordBatchReader, Table, tableToIPC, type RecordBatch } from 'apache-arrow';
import { InputError, IoError, isSystemError } from '../../core/errors.js';
import { allocate, width, type Batch, type ColumnData, type ColumnSpec } from './columns.js';
import { io, ioAsync } from './files.js';

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

/**
 * Every record batch of an Arrow IPC file, in order, each read into the same buffer: a batch (and
 * every array taken from it) is valid until the next one is asked for. For passes that are done
 * with a batch before the next (the summary's): reading a batch into fresh memory cost more than
 * everything else a pass does with it (npm start's hands.arrow, 376 MB in 65,536-row batches:
 * 1.1 s, against 0.2 s into one buffer: the kernel faults in every page of a fresh one).
 *
 * The file is read as the stream of messages it holds: each is its length, its metadata and its
 * body; a batch is handed to Arrow's reader as a stream of the schema's message (from the footer)
 * and its own.
 */
export async function* scanBatches(path: string): AsyncGenerator<RecordBatch> {
  const fd = io(path, 'open', () => openSync(path, 'r'));
  try {
    const size = fstatSync(fd).size;
    let buf = new Uint8Array(1 << 16);
    const at = (pos: number, n: number, into = 0): Uint8Array => {
      if (pos + n > size) throw new InputError(`${path}: not a readable Arrow IPC file (it ends inside a message at byte ${pos})`);
      if (into + n > buf.length) {
        const grown = new Uint8Array(Math.max(into + n, buf.length * 2));
        grown.set(buf.subarray(0, into));
        buf = grown;
      }
      let done = 0;
      while (done < n) done += io(path, 'read', () => readSync(fd, buf, into + done, n - done, pos + done));
      return buf.subarray(into, into + n);
    };
    const magic = new TextDecoder().decode(at(0, 6));
    if (magic !== 'ARROW1') throw new InputError(`${path}: not a readable Arrow IPC file (no ARROW1 magic)`);
    /** The message at `pos`: its length prefix and metadata's size, and its whole size. */
    const header = (pos: number): { meta: Message; prefix: number; total: number } | null => {
      if (pos + 8 > end) return null;
      const head = at(pos, 8);
      const view = new DataView(head.buffer, head.byteOffset, 8);
      const first = view.getInt32(0, true);
      const prefix = first === -1 ? 8 : 4; // a continuation marker, or (before Arrow 0.15) the length alone
      const len = first === -1 ? view.getInt32(4, true) : first;
      if (len === 0) return null; // end of stream
      if (len < 0 || pos + prefix + len > end) throw new InputError(`${path}: not a readable Arrow IPC file (a message at byte ${pos} has length ${len})`);
      const meta = Message.decode(at(pos + prefix, len));
      return { meta, prefix, total: prefix + len + meta.bodyLength };
    };
    // The footer (its length and the magic again at the end) follows the stream: stop there too.
    let end = size;
    if (size >= 18 && new TextDecoder().decode(at(size - 6, 6)) === 'ARROW1') {
      const tail = at(size - 10, 4);
      const footer = new DataView(tail.buffer, tail.byteOffset, 4).getInt32(0, true);
      if (footer > 0 && footer <= size - 18) end = size - 10 - footer;
    }
    // The schema, from the footer (Arrow's file writer puts it there only), as a stream's first message.
    let schemaBytes: Uint8Array;
    const handle = await ioAsync(path, 'open', () => open(path, 'r'));
    try {
      const reader = await RecordBatchReader.from(handle);
      await reader.open();
      const stream = tableToIPC(new Table(reader.schema), 'stream');
      schemaBytes = stream.subarray(0, stream.length - 8); // less the end-of-stream marker
    } catch (err) {
      throw unreadable(path, err);
    } finally {
      await handle.close();
    }
    let pos = 8;
    for (;;) {
      const h = header(pos);
      if (!h) return;
      if (h.meta.headerType === MessageHeader.Schema) {
        pos += h.total; // a writer that also puts it first
        continue;
      }
      if (h.meta.headerType !== MessageHeader.RecordBatch) throw new InputError(`${path}: not a readable Arrow IPC file (a message of type ${h.meta.headerType} at byte ${pos})`);
      at(pos, h.total, schemaBytes.length);
      buf.set(schemaBytes, 0);
      let rb: RecordBatch | undefined;
      try {
        const reader = RecordBatchReader.from(buf.subarray(0, schemaBytes.length + h.total));
        const next = reader.next();
        rb = next.done ? undefined : next.value;
      } catch (err) {
        throw unreadable(path, err);
      }
      if (!rb) throw new InputError(`${path}: not a readable Arrow IPC file (no record batch at byte ${pos})`);
      pos += h.total;
      yield rb;
    }
  } finally {
    closeSync(fd);
  }
}

/** The schema metadata of an Arrow file. */
export async function readMetadata(path: string): Promise<Map<string, string>> {
  return (await readSchema(path)).metadata;
}

/** The schema of an Arrow file: its metadata and its fields' names, in order. */
export async function readSchema(path: string): Promise<{ metadata: Map<string, string>; fields: string[] }> {
  const handle = await ioAsync(path, 'open', () => open(path, 'r'));
  try {
    const reader = await RecordBatchReader.from(handle);
    await reader.open();
    return { metadata: new Map(reader.schema.metadata), fields: reader.schema.fields.map((f) => f.name) };
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
