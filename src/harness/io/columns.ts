/**
 * Columnar batches: the plain data a job returns and the writer appends.
 *
 * A job's rows travel from a worker to the main thread as typed arrays (transferable, no
 * per-row objects): one array per column, strings as Arrow's own UTF-8 layout (offsets +
 * bytes). The same column specs define the Arrow schema, so a column is declared once.
 */

/**
 * Storage kinds of a column. `bool` travels as one byte per row and is bit-packed on write;
 * `u8xN` is a fixed-size list of `size` uint8 per row (Arrow FixedSizeList, one flat Uint8Array
 * of rows × size); `u16list` a list of uint16 of any length per row (Arrow List: offsets + values).
 */
export type ColumnKind = 'u8' | 'i8' | 'u16' | 'i32' | 'u32' | 'f32' | 'f64' | 'bool' | 'utf8' | 'u8xN' | 'u16list';

/** One column: its name in the file, storage kind and meaning (documented in results/README.md). */
export interface ColumnSpec {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly doc: string;
  /** `u8xN` only: values per row. */
  readonly size?: number;
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
  | Utf8Column
  | ListColumn;

/** Strings in Arrow layout: value i is bytes[offsets[i] .. offsets[i+1]). offsets.length = rows + 1. */
export interface Utf8Column {
  readonly offsets: Int32Array;
  readonly bytes: Uint8Array;
}

/** Lists of uint16: the values of row i are items[offsets[i] .. offsets[i+1]). offsets.length = rows + 1. */
export interface ListColumn {
  readonly offsets: Int32Array;
  readonly items: Uint16Array;
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
  /**
   * Numeric columns while rows are added: one value a row in a Float64Array whatever the column's
   * kind (stores to one array type stay monomorphic: stores through a mix of typed-array kinds were
   * the dearest part of appending a hand), converted to the kind by `build` (the same values:
   * a typed array's `set` from doubles converts exactly as a store does); `u8xN` columns are
   * Uint8Arrays of their own.
   */
  private readonly nums: (Float64Array | Uint8Array | null)[];
  private readonly strs: (string[] | null)[];
  /** `u16list` columns: their values so far and each row's end. */
  private readonly lists: ({ values: Uint16Array; length: number; ends: number[] } | null)[];
  /** The utf8 columns' value lists and the u16list columns (a row adds to these only: a table of many numeric columns pays nothing per row for them). */
  private readonly strLists: string[][];
  private readonly listCols: { values: Uint16Array; length: number; ends: number[] }[];

  constructor(
    readonly specs: readonly ColumnSpec[],
    initialCapacity = 1024,
  ) {
    this.capacity = Math.max(16, initialCapacity);
    this.nums = specs.map((s) => (s.kind === 'utf8' || s.kind === 'u16list' ? null : s.kind === 'u8xN' ? new Uint8Array(this.capacity * width(s)) : new Float64Array(this.capacity)));
    this.strs = specs.map((s) => (s.kind === 'utf8' ? [] : null));
    this.lists = specs.map((s) => (s.kind === 'u16list' ? { values: new Uint16Array(16 * this.capacity), length: 0, ends: [] } : null));
    this.strLists = this.strs.filter((s): s is string[] => s !== null);
    this.listCols = this.lists.filter((l): l is { values: Uint16Array; length: number; ends: number[] } => l !== null);
  }

  /** Number of rows so far. */
  get length(): number {
    return this.rows;
  }

  /** Start a new row with every column zero / empty; returns its index for `set`. */
  addRow(): number {
    if (this.rows === this.capacity) this.grow();
    const r = this.rows++;
    const strs = this.strLists;
    for (let i = 0; i < strs.length; i++) strs[i]!.push('');
    const lists = this.listCols;
    for (let i = 0; i < lists.length; i++) lists[i]!.ends.push(lists[i]!.length);
    return r;
  }

  /** Set `u8xN` column `col` of row `row` to `values` (exactly its size). */
  setFixed(row: number, col: number, values: ArrayLike<number>): void {
    const size = this.specs[col]!.size!;
    if (values.length !== size) throw new RangeError(`column "${this.specs[col]!.name}" holds ${size} values a row, got ${values.length}`);
    (this.nums[col] as Uint8Array).set(values, row * size);
  }

  /** Set `u16list` column `col` of the last row added to `values`. */
  setList(row: number, col: number, values: ArrayLike<number>): void {
    const l = this.lists[col]!;
    if (row !== this.rows - 1 || l.ends[row] !== l.length) throw new Error(`column "${this.specs[col]!.name}": a list is set once, on the last row added`);
    if (l.length + values.length > l.values.length) {
      const next = new Uint16Array(Math.max(2 * l.values.length, l.length + values.length));
      next.set(l.values.subarray(0, l.length));
      l.values = next;
    }
    l.values.set(values, l.length);
    l.length += values.length;
    l.ends[row] = l.length;
  }

  /** Set column `col` (index into specs) of row `row`. Numbers for numeric/bool columns, strings for utf8. */
  set(row: number, col: number, value: number | string | boolean): void {
    const n = this.nums[col] as Float64Array | null;
    if (n) n[row] = typeof value === 'boolean' ? (value ? 1 : 0) : (value as number);
    else this.strs[col]![row] = value as string;
  }

  /**
   * Set the numeric columns `cols[i]` of row `row` to `values[i]`, skipping zeros (a new row is
   * zero already): what `set` does column by column, with one loop for a run of columns of one kind.
   */
  setNonZero(row: number, cols: ArrayLike<number>, values: ArrayLike<number>): void {
    const nums = this.nums as Float64Array[];
    for (let i = 0; i < cols.length; i++) {
      const v = values[i]!;
      if (v !== 0) nums[cols[i]!]![row] = v;
    }
  }

  /** The rows as a transferable Batch (copies trimmed to length). */
  build(): Batch {
    const columns: ColumnData[] = this.specs.map((spec, i) => {
      const n = this.nums[i];
      const l = this.lists[i];
      if (l) return { offsets: Int32Array.from([0, ...l.ends]), items: l.values.slice(0, l.length) };
      if (!n) return encodeStrings(this.strs[i]!);
      if (spec.kind === 'u8xN') return n.slice(0, this.rows * width(spec));
      const out = allocate(spec.kind, this.rows);
      out.set(n.subarray(0, this.rows));
      return out;
    });
    return { rows: this.rows, columns };
  }

  private grow(): void {
    this.capacity *= 2;
    for (let i = 0; i < this.nums.length; i++) {
      const old = this.nums[i];
      if (!old) continue;
      const next = old instanceof Float64Array ? new Float64Array(this.capacity) : new Uint8Array(this.capacity * width(this.specs[i]!));
      next.set(old as never);
      this.nums[i] = next;
    }
  }
}

/** Values a row takes in a column's typed array: its size for `u8xN`, else 1. */
export function width(spec: ColumnSpec): number {
  return spec.kind === 'u8xN' ? spec.size! : 1;
}

/** A zeroed typed array for `kind` (not utf8 or u16list). */
export function allocate(kind: ColumnKind, n: number): Uint8Array | Int8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array {
  switch (kind) {
    case 'u8':
    case 'bool':
    case 'u8xN':
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
    case 'u16list':
      throw new Error(`${kind} columns are not one typed array`);
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
    if ('bytes' in c) out.push(c.offsets.buffer as ArrayBuffer, c.bytes.buffer as ArrayBuffer);
    else if ('items' in c) out.push(c.offsets.buffer as ArrayBuffer, c.items.buffer as ArrayBuffer);
    else out.push(c.buffer as ArrayBuffer);
  }
  return out;
}

/**
 * The rows of `batch` whose flag in `keep` is set, in order (a new batch; `batch` is left as it is).
 * A typed-array column holds `length / rows` values a row (a `u8xN` column its size).
 */
export function keepRows(batch: Batch, keep: ArrayLike<number | boolean>): Batch {
  const idx: number[] = [];
  for (let i = 0; i < batch.rows; i++) if (keep[i]) idx.push(i);
  if (idx.length === batch.rows) return batch;
  const columns = batch.columns.map((c): ColumnData => {
    if (!('offsets' in c)) {
      const from = c as Exclude<ColumnData, Utf8Column | ListColumn>;
      const w = batch.rows > 0 ? from.length / batch.rows : 1;
      const out = new (c.constructor as new (n: number) => typeof from)(idx.length * w);
      idx.forEach((i, k) => out.set(from.subarray(i * w, i * w + w) as never, k * w));
      return out;
    }
    const offsets = new Int32Array(idx.length + 1);
    let total = 0;
    idx.forEach((i, k) => {
      total += c.offsets[i + 1]! - c.offsets[i]!;
      offsets[k + 1] = total;
    });
    const values = 'bytes' in c ? c.bytes : c.items;
    const kept = new (values.constructor as new (n: number) => typeof values)(total);
    idx.forEach((i, k) => kept.set(values.subarray(c.offsets[i]!, c.offsets[i + 1]!) as never, offsets[k]!));
    return 'bytes' in c ? { offsets, bytes: kept as Uint8Array } : { offsets, items: kept as Uint16Array };
  });
  return { rows: idx.length, columns };
}
