/**
 * `run-state.json`: the checkpoint of an unfinished run, rewritten atomically after the journals
 * it describes are on the disk. It records what a resume must find unchanged before it may
 * continue: the experiment (and its hash), the code version, every bot module's hash, and per
 * journal the bytes, rows and SHA-256 reached; a SHA-256 of its own contents catches edits.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { InputError } from '../../core/errors.js';
import type { BotFingerprint } from '../experiment/botfiles.js';
import { readJsonFile, writeAtomic, writeAtomicAsync } from '../io/files.js';
import type { JournalMark } from '../io/journal.js';
import type { ShardRecord } from '../experiment/shard.js';

export const RUN_STATE = 'run-state.json';
/** The journals of an unfinished run, by table. */
export const JOURNALS = { hands: 'hands.partial.arrows', wins: 'wins.partial.arrows', decisions: 'decisions.partial.arrows' } as const;
const FORMAT = 'tw16-run-state-1';

/**
 * The luck sums file of checkpoint `n` (one name per checkpoint: the next is written before the
 * state that names it, and the last one removed after, so a crash between the two leaves the state
 * and the file it names intact).
 */
export function checkpointSums(n: number): string {
  return `luck.${n}.partial.sums`;
}

/** Is `name` a checkpoint's luck sums file (`checkpointSums`)? */
export function isCheckpointSums(name: string): boolean {
  return /^luck\.\d+\.partial\.sums$/.test(name);
}

/** How far a run got: complete jobs covering deals [first, dealsDone), in the journals up to these marks. */
export interface Checkpoint {
  /** Checkpoints written so far in this run (0 = the empty journals of a fresh start). */
  readonly n: number;
  /** The end of the deals done: the run's first deal (0, or its shard's `first`) until a job is written. */
  readonly dealsDone: number;
  readonly hands: JournalMark;
  readonly wins: JournalMark;
  /** A run recording decisions (`record`): decisions.arrow's journal. */
  readonly decisions?: JournalMark;
  /**
   * A run with luck: the file holding the luck's sums of exactly the rows up to these marks
   * (analysis/sumsfile.ts; `checkpointSums(n)`), its size and SHA-256. A resume restores the sums
   * from it rather than reading the rows' luck columns back.
   */
  readonly luck?: { readonly file: string; readonly bytes: number; readonly sha256: string };
}

export interface RunState {
  readonly format: typeof FORMAT;
  readonly version: string;
  /** The experiment as recorded in the outputs, and the SHA-256 of its JSON. */
  readonly experiment: unknown;
  readonly experimentSha256: string;
  readonly deals: number;
  /** A shard's run (tw16 run --shard): which one, and its deals [first, end). */
  readonly shard?: ShardRecord;
  readonly bots: readonly BotFingerprint[];
  readonly checkpoint: Checkpoint;
  /** Why the run stopped, when it did (interrupted; failed at a deal, with the error). */
  readonly stopped?: string;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** SHA-256 of an experiment's recorded JSON. */
export function experimentHash(recorded: unknown): string {
  return sha256(JSON.stringify(recorded));
}

/** Write the state durably, sealed with the hash of its contents. */
export function writeRunState(dir: string, state: Omit<RunState, 'format'>): void {
  writeAtomic(join(dir, RUN_STATE), sealed(state));
}

/** `writeRunState` with the waits for the disk off this thread (`writeAtomicAsync`). */
export function writeRunStateAsync(dir: string, state: Omit<RunState, 'format'>): Promise<void> {
  return writeAtomicAsync(join(dir, RUN_STATE), sealed(state));
}

/** The state file's text: the state and the SHA-256 sealing it. */
function sealed(state: Omit<RunState, 'format'>): string {
  const body = { format: FORMAT, ...state };
  return `${JSON.stringify({ ...body, sha256: sha256(JSON.stringify(body)) }, null, 2)}\n`;
}

/** Read and check the state of `dir`: missing, unreadable, edited or foreign → InputError naming it. */
export function readRunState(dir: string): RunState {
  const file = join(dir, RUN_STATE);
  const parsed = readJsonFile(file, { missing: () => `${dir}: nothing to resume (no ${RUN_STATE}: the run finished, was never started here, or its state was removed)`, invalid: 'corrupt, not valid JSON' }) as (RunState & { sha256?: unknown }) | null;
  if (parsed?.format !== FORMAT) throw new InputError(`${file}: not a tw16 run state (format "${FORMAT}" expected)`);
  const { sha256: seal, ...body } = parsed;
  if (seal !== sha256(JSON.stringify(body))) throw new InputError(`${file}: edited or corrupt (its contents no longer match the SHA-256 it was sealed with)`);
  return body;
}
