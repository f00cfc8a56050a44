/**
 * Columnar batches: the plain data a job returns and the writer appends.
 *
 * A job's rows travel from a worker to the main thread as typed arrays (transferable, no
 * per-row objects): one array per column, strings as Arrow's own UTF-8 layout (offsets +
 * bytes). The same column specs define the Arrow schema, so a column is declared once.
 */

/** Storage kinds of a column. `bool` travels as one byte per row and is bit-packed on write. */
export type ColumnKind = 'u8' | 'i8' | 'u16' | 'i32' | 'u32' | 'f32' | 'f64' | 'bool' | 'utf8';

/** One column: its name in the file, storage kind and meaning (documented in results/README.md). */
export interface ColumnSpec {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly doc: string;
  /** For a column added after 0.1.0: the value `tw16 diff` reads for it in files written before it existed. */
  readonly absentAs?: number | boolean;
}

/** A column's values for some rows. */
export type ColumnData =
  | Uint8Array
  | Int8Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | Utf8Column;

/** Strings in Arrow layout: value i is bytes[offsets[i] .. offsets[i+1]). offsets.length = rows + 1. */
export interface Utf8Column {
  readonly offsets: Int32Array;
  readonly bytes: Uint8Array;
}

/** Rows of one table: `rows` values in every column, in spec order. */
export interface Batch {
  readonly rows: number;
  readonly columns: ColumnData[];
}

const encoder = new TextEncoder();

/** A growable builder for one table's rows, column by column. */
export class BatchBuilder {
  private rows = 0;
  private capacity: number;
  private readonly nums: (Uint8Array | Int8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array | null)[];
  private readonly strs: (string[] | null)[];

  constructor(
    readonly specs: readonly ColumnSpec[],
    initialCapacity = 1024,
  ) {
    this.capacity = Math.max(16, initialCapacity);
    this.nums = specs.map((s) => (s.kind === 'utf8' ? null : allocate(s.kind, this.capacity)));
    this.strs = specs.map((s) => (s.kind === 'utf8' ? [] : null));
  }

  /** Number of rows so far. */
  get length(): number {
    return this.rows;
  }

  /** Start a new row with every column zero / empty; returns its index for `set`. */
  addRow(): number {
    if (this.rows === this.capacity) this.grow();
    const r = this.rows++;
    for (const s of this.strs) s?.push('');
    return r;
  }

  /** Set column `col` (index into specs) of row `row`. Numbers for numeric/bool columns, strings for utf8. */
  set(row: number, col: number, value: number | string | boolean): void {
    const n = this.nums[col];
    if (n) n[row] = typeof value === 'boolean' ? (value ? 1 : 0) : (value as number);
    else this.strs[col]![row] = value as string;
  }

  /** The rows as a transferable Batch (copies trimmed to length). */
  build(): Batch {
    const columns: ColumnData[] = this.specs.map((_, i) => {
      const n = this.nums[i];
      return n ? n.slice(0, this.rows) : encodeStrings(this.strs[i]!);
    });
    return { rows: this.rows, columns };
  }

  private grow(): void {
    this.capacity *= 2;
    for (let i = 0; i < this.nums.length; i++) {
      const old = this.nums[i];
      if (!old) continue;
      const next = allocate(this.specs[i]!.kind, this.capacity);
      next.set(old as never);
      this.nums[i] = next;
    }
  }
}

/** A zeroed typed array for `kind` (not utf8). */
export function allocate(kind: ColumnKind, n: number): Uint8Array | Int8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array {
  switch (kind) {
    case 'u8':
    case 'bool':
      return new Uint8Array(n);
    case 'i8':
      return new Int8Array(n);
    case 'u16':
      return new Uint16Array(n);
    case 'i32':
      return new Int32Array(n);
    case 'u32':
      return new Uint32Array(n);
    case 'f32':
      return new Float32Array(n);
    case 'f64':
      return new Float64Array(n);
    case 'utf8':
      throw new Error('utf8 columns are not typed arrays');
  }
}

/** Strings → Arrow UTF-8 layout. */
export function encodeStrings(values: readonly string[]): Utf8Column {
  const cache = new Map<string, Uint8Array>(); // columns repeat few distinct values (bot names, outcomes)
  const parts = values.map((v) => {
    let b = cache.get(v);
    if (!b) cache.set(v, (b = encoder.encode(v)));
    return b;
  });
  const offsets = new Int32Array(values.length + 1);
  let total = 0;
  for (let i = 0; i < parts.length; i++) {
    total += parts[i]!.length;
    offsets[i + 1] = total;
  }
  const bytes = new Uint8Array(total);
  for (let i = 0; i < parts.length; i++) bytes.set(parts[i]!, offsets[i]!);
  return { offsets, bytes };
}

/** The buffers of a batch, for piscina's transfer list (moved, not copied, to the main thread). */
export function transferables(batch: Batch): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const c of batch.columns) {
    if ('offsets' in c) out.push(c.offsets.buffer as ArrayBuffer, c.bytes.buffer as ArrayBuffer);
    else out.push(c.buffer as ArrayBuffer);
  }
  return out;
}

/** The rows of `batch` whose flag in `keep` is set, in order (a new batch; `batch` is left as it is). */
export function keepRows(batch: Batch, keep: ArrayLike<number | boolean>): Batch {
  const idx: number[] = [];
  for (let i = 0; i < batch.rows; i++) if (keep[i]) idx.push(i);
  if (idx.length === batch.rows) return batch;
  const columns = batch.columns.map((c): ColumnData => {
    if (!('offsets' in c)) {
      const from = c as Exclude<ColumnData, Utf8Column> & { [i: number]: number };
      const out = new (c.constructor as new (n: number) => typeof from)(idx.length);
      idx.forEach((i, k) => (out[k] = from[i]!));
      return out;
    }
    const offsets = new Int32Array(idx.length + 1);
    let total = 0;
    idx.forEach((i, k) => {
      total += c.offsets[i + 1]! - c.offsets[i]!;
      offsets[k + 1] = total;
    });
    const bytes = new Uint8Array(total);
    idx.forEach((i, k) => bytes.set(c.bytes.subarray(c.offsets[i]!, c.offsets[i + 1]!), offsets[k]!));
    return { offsets, bytes };
  });
  return { rows: idx.length, columns };
}
