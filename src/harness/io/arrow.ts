/**
 * Arrow IPC *file* output (what pyarrow/polars/DuckDB open as `.arrow`), written so that the
 * bytes depend only on the rows: rows are re-chunked into record batches of a fixed row count,
 * whatever the job size or worker count that produced them. Files are written under a
 * temporary name and renamed into place by `commit()`; `release()` gives up a file after a
 * failure. The same record-batch encoding feeds the journals of unfinished runs (journal.ts).
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import {
  AsyncByteQueue,
  Bool,
  Field,
  FixedSizeList,
  Float32,
  Float64,
  Int8,
  Int32,
  List,
  RecordBatch,
  RecordBatchFileWriter,
  Schema,
  Struct,
  Uint8,
  Uint16,
  Uint32,
  Utf8,
  makeData,
  type DataType,
  type Data,
} from 'apache-arrow';
import { allocate, width, type Batch, type ColumnSpec, type ListColumn, type Utf8Column } from './columns.js';
import { io, renameFile } from './files.js';

/** Rows per record batch in every file we write. Fixed: part of the output format. */
export const ROWS_PER_BATCH = 65536;

function arrowType(spec: ColumnSpec): DataType {
  switch (spec.kind) {
    case 'u8':
      return new Uint8();
    case 'i8':
      return new Int8();
    case 'u16':
      return new Uint16();
    case 'i32':
      return new Int32();
    case 'u32':
      return new Uint32();
    case 'f32':
      return new Float32();
    case 'f64':
      return new Float64();
    case 'bool':
      return new Bool();
    case 'utf8':
      return new Utf8();
    case 'u8xN':
      return new FixedSizeList(spec.size!, new Field('item', new Uint8(), false));
    case 'u16list':
      return new List(new Field('item', new Uint16(), false));
  }
}

/** The Arrow schema of a table: columns non-nullable, in spec order, with string metadata. */
export function arrowSchema(specs: readonly ColumnSpec[], metadata: ReadonlyMap<string, string>): Schema {
  const seen = new Set<string>();
  for (const s of specs) {
    if (seen.has(s.name)) throw new Error(`column "${s.name}" declared twice`);
    seen.add(s.name);
  }
  return new Schema(
    specs.map((s) => new Field(s.name, arrowType(s), false)),
    new Map(metadata),
  );
}

/**
 * Sends a writer's bytes straight to a file descriptor (no buffering of the whole file), telling
 * `observe` about each chunk (for a running hash). Bytes written while `muted` are dropped (a
 * journal reopened for appending must not repeat its schema).
 */
export class FdSink extends AsyncByteQueue {
  muted = false;
  constructor(
    private readonly fd: number,
    private readonly path: string,
    private readonly observe?: (bytes: Uint8Array) => void,
  ) {
    super();
  }
  override write(chunk: ArrayBufferView | ArrayBufferLike | string): boolean {
    if (this.muted) return true;
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk)
        : ArrayBuffer.isView(chunk)
          ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
          : new Uint8Array(chunk as ArrayBufferLike);
    io(this.path, 'write', () => {
      let done = 0;
      while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done);
    });
    this.observe?.(bytes);
    return true;
  }
}

/** A Batch (columns in `specs` order, string offsets starting at 0) as an Arrow record batch of `schema`. */
export function toRecordBatch(schema: Schema, specs: readonly ColumnSpec[], batch: Batch): RecordBatch {
  const n = batch.rows;
  const children: Data[] = specs.map((spec, c) => {
    const col = batch.columns[c]!;
    const type = schema.fields[c]!.type;
    if (spec.kind === 'bool') return makeData({ type, length: n, data: packBits(col as Uint8Array, n) } as never);
    if (spec.kind === 'u8xN') return makeData({ type, length: n, child: makeData({ type: new Uint8(), length: n * spec.size!, data: col as Uint8Array }) } as never);
    if (spec.kind === 'u16list') {
      const l = col as ListColumn;
      return makeData({ type, length: n, valueOffsets: l.offsets, child: makeData({ type: new Uint16(), length: l.offsets[n]!, data: l.items }) } as never);
    }
    if (spec.kind !== 'utf8') return makeData({ type, length: n, data: col } as never);
    const s = col as Utf8Column;
    return makeData({ type, length: n, valueOffsets: s.offsets, data: s.bytes } as never);
  });
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, children }));
}

/**
 * Rows the pending buffers hold at first; they double as rows come, up to the batch's rows (a
 * run of a few hands does not zero a batch's worth: 65,536 rows of every column, tens of MB).
 */
const FIRST_PENDING_ROWS = 1024;

/** Pending rows of one column, up to ROWS_PER_BATCH (strings' bytes, or lists' items, as parts). */
interface Pending {
  nums: Uint8Array | Int8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array | null;
  strOffsets: Int32Array | null;
  strBytes: Uint8Array[];
  strLength: number;
  listItems: Uint16Array[] | null;
}

/**
 * Writes one table to `path` via `path + '.tmp'`. Append job batches in job order with
 * `append`; `commit()` finishes the file and renames it into place.
 */
export class ArrowTableWriter {
  readonly tmpPath: string;
  private readonly schema: Schema;
  private readonly writer = new RecordBatchFileWriter();
  private readonly fd: number;
  private readonly pending: Pending[];
  private pendingRows = 0;
  /** Rows the pending buffers have room for (FIRST_PENDING_ROWS, doubling up to rowsPerBatch). */
  private capacity: number;
  private closed = false;
  /** Rows written so far (including pending ones). */
  rowsWritten = 0;

  constructor(
    readonly path: string,
    readonly specs: readonly ColumnSpec[],
    metadata: ReadonlyMap<string, string>,
    readonly rowsPerBatch = ROWS_PER_BATCH,
  ) {
    this.tmpPath = `${path}.tmp`;
    this.schema = arrowSchema(specs, metadata);
    this.fd = io(this.tmpPath, 'create', () => openSync(this.tmpPath, 'w'));
    this.writer.reset(new FdSink(this.fd, this.tmpPath), this.schema);
    this.capacity = Math.min(rowsPerBatch, FIRST_PENDING_ROWS);
    this.pending = specs.map((s) => this.emptyPending(s));
  }

  /** Append all rows of `batch` (columns in spec order). */
  append(batch: Batch): void {
    let from = 0;
    while (from < batch.rows) {
      const take = Math.min(batch.rows - from, this.rowsPerBatch - this.pendingRows);
      if (this.pendingRows + take > this.capacity) this.grow(this.pendingRows + take);
      this.copyRows(batch, from, take);
      from += take;
      if (this.pendingRows === this.rowsPerBatch) this.flush();
    }
  }

  /** Finish the file (footer) and close it, leaving it at the temporary name. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.writer.finish();
    io(this.tmpPath, 'sync', () => fsyncSync(this.fd));
    this.release();
  }

  /** Close the file descriptor without finishing the file (after a failure). */
  release(): void {
    if (this.closed) return;
    this.closed = true;
    io(this.tmpPath, 'close', () => closeSync(this.fd));
  }

  /** Close and move the complete file to its final name. */
  commit(): void {
    this.close();
    renameFile(this.tmpPath, this.path);
  }

  private emptyPending(spec: ColumnSpec): Pending {
    if (spec.kind === 'utf8' || spec.kind === 'u16list') return { nums: null, strOffsets: new Int32Array(this.capacity + 1), strBytes: [], strLength: 0, listItems: spec.kind === 'u16list' ? [] : null };
    return { nums: allocate(spec.kind, this.capacity * width(spec)), strOffsets: null, strBytes: [], strLength: 0, listItems: null };
  }

  /** Room for at least `rows` pending rows (at most rowsPerBatch), the pending ones kept. */
  private grow(rows: number): void {
    let capacity = this.capacity;
    while (capacity < rows) capacity *= 2;
    this.capacity = Math.min(this.rowsPerBatch, capacity);
    this.pending.forEach((p, c) => {
      const fresh = this.emptyPending(this.specs[c]!);
      if (p.nums) {
        fresh.nums!.set(p.nums.subarray(0, this.pendingRows * width(this.specs[c]!)) as never);
        p.nums = fresh.nums;
      } else {
        fresh.strOffsets!.set(p.strOffsets!.subarray(0, this.pendingRows + 1));
        p.strOffsets = fresh.strOffsets;
      }
    });
  }

  private copyRows(batch: Batch, from: number, count: number): void {
    const at = this.pendingRows;
    for (let c = 0; c < this.specs.length; c++) {
      const p = this.pending[c]!;
      const src = batch.columns[c]!;
      if (p.nums) {
        const w = width(this.specs[c]!);
        p.nums.set((src as Uint8Array).subarray(from * w, (from + count) * w) as never, at * w);
      } else if (p.listItems) {
        const l = src as ListColumn;
        const start = l.offsets[from]!;
        const end = l.offsets[from + count]!;
        for (let i = 1; i <= count; i++) p.strOffsets![at + i] = p.strLength + l.offsets[from + i]! - start;
        p.listItems.push(l.items.subarray(start, end));
        p.strLength += end - start;
      } else {
        const s = src as Utf8Column;
        const start = s.offsets[from]!;
        const end = s.offsets[from + count]!;
        for (let i = 1; i <= count; i++) p.strOffsets![at + i] = p.strLength + s.offsets[from + i]! - start;
        p.strBytes.push(s.bytes.subarray(start, end));
        p.strLength += end - start;
      }
    }
    this.pendingRows += count;
    this.rowsWritten += count;
  }

  private flush(): void {
    const n = this.pendingRows;
    if (n === 0) return;
    const columns = this.pending.map((p, c) => {
      if (p.nums) return p.nums.subarray(0, n * width(this.specs[c]!));
      if (p.listItems) return { offsets: p.strOffsets!.subarray(0, n + 1), items: concat(p.listItems, new Uint16Array(p.strLength)) };
      return { offsets: p.strOffsets!.subarray(0, n + 1), bytes: concat(p.strBytes, new Uint8Array(p.strLength)) };
    });
    this.writer.write(toRecordBatch(this.schema, this.specs, { rows: n, columns }));
    // The sink has written every byte (FdSink writes synchronously): the buffers take the next
    // rows (a fresh set was 52 MB of zeroed memory a batch with the luck columns, and its garbage).
    this.pendingRows = 0;
    for (const p of this.pending) {
      p.strBytes = [];
      p.strLength = 0;
      if (p.listItems) p.listItems = [];
    }
  }
}

/** One byte per value (0/1) → Arrow's LSB-first bitmap. */
function packBits(values: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array((n + 7) >> 3);
  for (let i = 0; i < n; i++) if (values[i]) out[i >> 3]! |= 1 << (i & 7);
  return out;
}

/** `parts` one after another into `out` (exactly their total length). */
function concat<T extends Uint8Array | Uint16Array>(parts: readonly T[], out: T): T {
  let o = 0;
  for (const part of parts) {
    out.set(part, o);
    o += part.length;
  }
  return out;
}
