/**
 * The journal of an unfinished run: one table's rows as an Arrow IPC *stream* (the schema,
 * then one record batch per job, in job order), appended as jobs complete. `mark()` makes
 * what was appended durable and returns the checkpoint a run state records: the byte length,
 * the row count and the SHA-256 of those bytes. Bytes after the last recorded checkpoint (a
 * job appended when the process died) are cut off when the run resumes.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, fsyncSync, ftruncateSync, openSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { AsyncByteQueue, RecordBatchReader, RecordBatchStreamWriter, type RecordBatch } from 'apache-arrow';
import { InputError, isSystemError } from '../../core/errors.js';
import { arrowSchema, FdSink, toRecordBatch } from './arrow.js';
import type { Batch, ColumnSpec } from './columns.js';
import { fsyncAsync, hashFile, io, ioAsync } from './files.js';

/** A checkpoint of a journal: its first `bytes` bytes hold `rows` rows and hash to `sha256`. */
export interface JournalMark {
  readonly bytes: number;
  readonly rows: number;
  readonly sha256: string;
}

/** An open journal, appended job by job. */
export class Journal {
  private readonly writer = new RecordBatchStreamWriter();
  private readonly schema;
  private readonly sink: FdSink;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly specs: readonly ColumnSpec[],
    metadata: ReadonlyMap<string, string>,
    private readonly fd: number,
    private readonly hash: Hash,
    private bytes: number,
    private rows: number,
  ) {
    this.schema = arrowSchema(specs, metadata);
    const sink = (this.sink = new FdSink(fd, path, (b) => {
      this.hash.update(b);
      this.bytes += b.length;
    }));
    // A reopened journal already holds its schema message: write it to nowhere.
    sink.muted = bytes > 0;
    this.writer.reset(sink, this.schema);
    sink.muted = false;
  }

  /** A new, empty journal at `path` (replacing any file there). */
  static create(path: string, specs: readonly ColumnSpec[], metadata: ReadonlyMap<string, string>): Journal {
    const fd = io(path, 'create', () => openSync(path, 'w'));
    return new Journal(path, specs, metadata, fd, createHash('sha256'), 0, 0);
  }

  /** Reopen a verified journal for appending, cutting it back to its checkpoint. */
  static reopen(path: string, specs: readonly ColumnSpec[], metadata: ReadonlyMap<string, string>, verified: VerifiedJournal): Journal {
    const fd = io(path, 'open', () => openSync(path, 'a')); // appends land after the cut
    io(path, 'truncate', () => ftruncateSync(fd, verified.mark.bytes));
    return new Journal(path, specs, metadata, fd, verified.hash, verified.mark.bytes, verified.mark.rows);
  }

  /**
   * Append a job's rows (one record batch; none for an empty batch). `encoded`, when given, is
   * that record batch already encoded by `encodeJournalBatch` (in the worker that played the
   * job): its bytes are written as they are, and the main thread only writes and hashes.
   */
  append(batch: Batch, encoded?: Uint8Array): void {
    if (batch.rows === 0) return;
    if (encoded) this.sink.write(encoded);
    else this.writer.write(toRecordBatch(this.schema, this.specs, batch));
    this.rows += batch.rows;
  }

  /** Flush everything appended to the disk; the checkpoint it reached. */
  mark(): JournalMark {
    io(this.path, 'sync', () => fsyncSync(this.fd));
    return { bytes: this.bytes, rows: this.rows, sha256: this.hash.copy().digest('hex') };
  }

  /**
   * `mark` with the flush in libuv's pool: the checkpoint is what was appended when called, and
   * is on the disk when the promise resolves (appends may go on meanwhile; they come after it).
   */
  async markAsync(): Promise<JournalMark> {
    const mark = { bytes: this.bytes, rows: this.rows, sha256: this.hash.copy().digest('hex') };
    await fsyncAsync(this.fd, this.path);
    return mark;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    io(this.path, 'close', () => closeSync(this.fd));
  }
}

/**
 * One job's rows as the journal's record-batch message: the bytes `Journal.append` writes for
 * `batch` (a record batch message depends on its columns only, not on the stream's schema
 * metadata or position: messages are 8-byte aligned). Empty for no rows. Run in the workers,
 * so the main thread does not encode.
 */
export function encodeJournalBatch(specs: readonly ColumnSpec[], batch: Batch): Uint8Array {
  if (batch.rows === 0) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  const sink = new CollectSink(chunks);
  const schema = arrowSchema(specs, new Map());
  const writer = new RecordBatchStreamWriter();
  sink.muted = true; // the schema message: the journal has its own
  writer.reset(sink, schema);
  sink.muted = false;
  writer.write(toRecordBatch(schema, specs, batch));
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** A writer's sink that keeps copies of the chunks (dropped while `muted`). */
class CollectSink extends AsyncByteQueue {
  muted = false;
  constructor(private readonly chunks: Uint8Array[]) {
    super();
  }
  override write(chunk: ArrayBufferView | ArrayBufferLike | string): boolean {
    if (this.muted) return true;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : ArrayBuffer.isView(chunk) ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength) : new Uint8Array(chunk as ArrayBufferLike);
    this.chunks.push(bytes.slice());
    return true;
  }
}

/** A check of a journal's rows, batch by batch, then at the end: a reason they are wrong, or undefined. */
export interface RowCheck {
  readonly batch: (rb: RecordBatch) => string | undefined;
  readonly end: () => string | undefined;
}

/** A journal checked against its checkpoint, with the running hash of its first `mark.bytes` bytes. */
export interface VerifiedJournal {
  readonly mark: JournalMark;
  readonly hash: Hash;
}

/**
 * Check that the journal at `path` holds the checkpoint `mark`: at least `mark.bytes` bytes,
 * whose SHA-256 matches, which parse as an Arrow stream of exactly `mark.rows` rows, each
 * record batches passing `check`. Any difference is an InputError naming the file and what differs.
 */
export async function verifyJournal(path: string, mark: JournalMark, check: RowCheck): Promise<VerifiedJournal> {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (err) {
    if (isSystemError(err) && err.code === 'ENOENT') throw new InputError(`${path}: missing (run-state.json records ${mark.rows.toLocaleString('en-US')} rows in it)`);
    throw err;
  }
  if (size < mark.bytes) throw new InputError(`${path}: truncated: ${size.toLocaleString('en-US')} bytes, run-state.json records ${mark.bytes.toLocaleString('en-US')}`);
  const { sha256, hash } = await hashFile(path, mark.bytes);
  if (sha256 !== mark.sha256) throw new InputError(`${path}: its first ${mark.bytes.toLocaleString('en-US')} bytes differ from run-state.json's checkpoint (SHA-256 ${sha256.slice(0, 12)}…, recorded ${mark.sha256.slice(0, 12)}…): modified or corrupt`);
  let rows = 0;
  try {
    for await (const rb of journalBatches(path, mark.bytes)) {
      const problem = check.batch(rb);
      if (problem) throw new InputError(`${path}: ${problem}`);
      rows += rb.numRows;
    }
    const problem = check.end();
    if (problem) throw new InputError(`${path}: ${problem}`);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`${path}: not a readable Arrow stream (${err instanceof Error ? err.message : String(err)})`);
  }
  if (rows !== mark.rows) throw new InputError(`${path}: holds ${rows.toLocaleString('en-US')} rows, run-state.json records ${mark.rows.toLocaleString('en-US')}`);
  return { mark, hash };
}

/** The record batches in the first `bytes` bytes of a journal, read in chunks. */
export async function* journalBatches(path: string, bytes: number): AsyncGenerator<RecordBatch> {
  const fh = await ioAsync(path, 'open', () => open(path, 'r'));
  try {
    async function* chunks(): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < bytes; ) {
        const buf = new Uint8Array(Math.min(1 << 20, bytes - at));
        const { bytesRead } = await ioAsync(path, 'read', () => fh.read(buf, 0, buf.length, at));
        if (bytesRead === 0) return;
        at += bytesRead;
        yield buf.subarray(0, bytesRead);
      }
    }
    if (bytes === 0) return;
    const reader = await RecordBatchReader.from(chunks());
    await reader.open();
    for await (const rb of reader) yield rb;
  } finally {
    await fh.close();
  }
}
