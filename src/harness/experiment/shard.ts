/**
 * Shards: a run split into N contiguous, near-equal deal ranges, each run on its own (a Slurm
 * array task, a Kubernetes Indexed Job pod, another machine) into its own directory and merged
 * afterwards (merge.ts) into exactly the bytes of the single run. Every hand is a pure function
 * of (experiment, seed, hand key), so nothing but the range differs between a shard and the run.
 *
 * Shard I of N is written `I/N`, 1 ≤ I ≤ N, and covers deals [first, end): the first
 * `deals mod N` shards hold one deal more than the others.
 */
import { UsageError } from '../../core/errors.js';

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Deals [first, end). */
export interface DealRange {
  readonly first: number;
  readonly end: number;
}

/** A shard with its deal range, as manifests and run states record it. */
export interface ShardRecord extends Shard, DealRange {}

/** `I/N`, as flags and messages write it. */
export function shardName(s: Shard): string {
  return `${s.index}/${s.count}`;
}

/** The directory a shard writes into, inside the run's output directory. */
export function shardDirName(s: Shard): string {
  return `shard-${s.index}-of-${s.count}`;
}

/** Deals of shard `s` of a run of `deals` deals (exact in doubles up to 2^53 deals). */
export function shardRange(deals: number, s: Shard): DealRange {
  const q = Math.floor(deals / s.count);
  const r = deals % s.count;
  const i = s.index - 1;
  const first = i * q + Math.min(i, r);
  return { first, end: first + q + (i < r ? 1 : 0) };
}

/** Shard `s` of a run of `deals` deals with its range; UsageError when the run has fewer deals than shards. */
export function shardRecord(deals: number, s: Shard): ShardRecord {
  if (s.count > deals) throw new UsageError(`--shard ${shardName(s)}: ${s.count.toLocaleString('en-US')} shards of a run of ${deals.toLocaleString('en-US')} deals: at most one shard per deal`);
  return { index: s.index, count: s.count, ...shardRange(deals, s) };
}

/** Deals `first`–`end − 1`, for messages. */
export function rangeText(r: DealRange): string {
  return r.end - r.first === 1 ? `deal ${r.first.toLocaleString('en-US')}` : `deals ${r.first.toLocaleString('en-US')}–${(r.end - 1).toLocaleString('en-US')}`;
}

const whole = (s: string): number | undefined => (/^\d{1,15}$/.test(s) ? Number(s) : undefined);

/** `I/N` → a Shard; anything else is a UsageError. (`auto` is read by `shardFromEnv`.) */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? whole(m[1]!) : undefined;
  const count = m ? whole(m[2]!) : undefined;
  if (index === undefined || count === undefined || count < 1 || index < 1 || index > count) {
    throw new UsageError(`--shard: expected I/N (shard I of N, 1 ≤ I ≤ N, e.g. 2/8) or auto (from the scheduler's variables), got ${JSON.stringify(text)}`);
  }
  return { index, count };
}

/**
 * The shard a scheduler's task is, from its standard variables:
 * - a Slurm job array: `SLURM_ARRAY_TASK_ID` within `SLURM_ARRAY_TASK_MIN`…`MAX`, `SLURM_ARRAY_TASK_COUNT`
 *   tasks (the array must be a plain range, e.g. `--array=1-8` or `0-7`); task MIN is shard 1;
 * - a Kubernetes Indexed Job: `JOB_COMPLETION_INDEX` (0-based) with `shards`, the Job's `completions`;
 *   index 0 is shard 1.
 * `shards`, when given, must agree with the scheduler. An absent or inconsistent variable is a UsageError.
 */
export function shardFromEnv(env: NodeJS.ProcessEnv, shards?: number): Shard {
  const slurm = env.SLURM_ARRAY_TASK_ID;
  const k8s = env.JOB_COMPLETION_INDEX;
  const num = (name: string): number => {
    const v = env[name];
    if (v === undefined || v === '') throw new UsageError(`--shard auto: ${name} is not set (SLURM_ARRAY_TASK_ID=${slurm} needs SLURM_ARRAY_TASK_COUNT, _MIN and _MAX: is this a Slurm job array?)`);
    const n = whole(v.trim());
    if (n === undefined) throw new UsageError(`--shard auto: ${name}=${JSON.stringify(v)}: expected a whole number`);
    return n;
  };
  if (slurm !== undefined && slurm !== '' && k8s !== undefined && k8s !== '') {
    throw new UsageError(`--shard auto: both SLURM_ARRAY_TASK_ID=${slurm} (Slurm) and JOB_COMPLETION_INDEX=${k8s} (Kubernetes) are set: give --shard I/N`);
  }
  if (slurm !== undefined && slurm !== '') {
    const id = num('SLURM_ARRAY_TASK_ID');
    const count = num('SLURM_ARRAY_TASK_COUNT');
    const min = num('SLURM_ARRAY_TASK_MIN');
    const max = num('SLURM_ARRAY_TASK_MAX');
    if (count < 1 || max < min || max - min + 1 !== count) {
      throw new UsageError(`--shard auto: SLURM_ARRAY_TASK_COUNT=${count} but the array runs ${min}–${max}: a stepped or sparse array (${max - min + 1} ids); submit a plain range such as --array=1-${count}, or give --shard I/N`);
    }
    if (id < min || id > max) throw new UsageError(`--shard auto: SLURM_ARRAY_TASK_ID=${id} is outside the array ${min}–${max}`);
    if (shards !== undefined && shards !== count) throw new UsageError(`--shards ${shards}: the Slurm array has ${count} tasks (SLURM_ARRAY_TASK_COUNT)`);
    return { index: id - min + 1, count };
  }
  if (k8s !== undefined && k8s !== '') {
    const index = num('JOB_COMPLETION_INDEX');
    if (shards === undefined) throw new UsageError(`--shard auto: JOB_COMPLETION_INDEX=${index} (a Kubernetes Indexed Job) needs --shards N, the Job's completions`);
    if (index >= shards) throw new UsageError(`--shard auto: JOB_COMPLETION_INDEX=${index} is not below --shards ${shards} (indexes run 0–${shards - 1}: does --shards match the Job's completions?)`);
    return { index: index + 1, count: shards };
  }
  throw new UsageError('--shard auto: no scheduler task index: neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set; give --shard I/N');
}
