/** Shards (src/harness/experiment/shard.ts): the deal ranges, the I/N flag and the scheduler variables. */
import { describe, expect, it } from 'vitest';
import { parseShard, rangeText, shardFromEnv, shardRange, shardRecord } from '../../../src/harness/experiment/shard.js';

describe('shardRange', () => {
  it('splits any number of deals into N contiguous ranges that tile it exactly once, sizes differing by at most one', () => {
    for (const deals of [1, 2, 3, 7, 10, 64, 100, 1_000_003, 2 ** 32, 2 ** 32 - 1]) {
      for (const count of [1, 2, 3, 4, 7, 16, 1000]) {
        if (count > deals) continue;
        let end = 0;
        const sizes = new Set<number>();
        for (let index = 1; index <= count; index++) {
          const r = shardRange(deals, { index, count });
          expect(r.first).toBe(end);
          expect(r.end).toBeGreaterThan(r.first);
          sizes.add(r.end - r.first);
          end = r.end;
        }
        expect(end).toBe(deals);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        expect(sizes.has(Math.floor(deals / count))).toBe(true);
      }
    }
  });

  it('gives the first deals mod N shards the extra deal', () => {
    expect([1, 2, 3].map((index) => shardRange(10, { index, count: 3 }))).toEqual([
      { first: 0, end: 4 },
      { first: 4, end: 7 },
      { first: 7, end: 10 },
    ]);
    expect(rangeText({ first: 4, end: 7 })).toBe('deals 4–6');
    expect(rangeText({ first: 1_000_000, end: 1_000_001 })).toBe('deal 1,000,000');
  });

  it('refuses more shards than deals', () => {
    expect(shardRecord(3, { index: 3, count: 3 })).toEqual({ index: 3, count: 3, first: 2, end: 3 });
    expect(() => shardRecord(3, { index: 1, count: 4 })).toThrow(/^--shard 1\/4: 4 shards of a run of 3 deals: at most one shard per deal$/);
  });
});

describe('parseShard', () => {
  it('reads I/N, 1 ≤ I ≤ N', () => {
    expect(parseShard('2/8')).toEqual({ index: 2, count: 8 });
    expect(parseShard(' 8 / 8 ')).toEqual({ index: 8, count: 8 });
  });
  it.each(['0/3', '4/3', '1/0', '3', 'half', '1/3/5', '-1/3', '1.5/3', ''])('refuses %j in one line', (text) => {
    expect(() => parseShard(text)).toThrow(/^--shard: expected I\/N \(shard I of N, 1 ≤ I ≤ N, e\.g\. 2\/8\) or auto \(from the scheduler's variables\), got ".*"$/);
  });
});

describe('shardFromEnv', () => {
  const slurm = (id: number, min: number, max: number, count = max - min + 1) => ({
    SLURM_ARRAY_TASK_ID: String(id),
    SLURM_ARRAY_TASK_MIN: String(min),
    SLURM_ARRAY_TASK_MAX: String(max),
    SLURM_ARRAY_TASK_COUNT: String(count),
  });

  it('a Slurm job array: task MIN is shard 1, whatever the array starts at', () => {
    expect(shardFromEnv(slurm(1, 1, 8))).toEqual({ index: 1, count: 8 });
    expect(shardFromEnv(slurm(0, 0, 7))).toEqual({ index: 1, count: 8 });
    expect(shardFromEnv(slurm(7, 0, 7))).toEqual({ index: 8, count: 8 });
    expect(shardFromEnv(slurm(12, 10, 12))).toEqual({ index: 3, count: 3 });
    expect(shardFromEnv(slurm(2, 1, 3), 3)).toEqual({ index: 2, count: 3 });
  });

  it('a Kubernetes Indexed Job: index 0 is shard 1, with --shards', () => {
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: '0' }, 4)).toEqual({ index: 1, count: 4 });
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: '3' }, 4)).toEqual({ index: 4, count: 4 });
  });

  it.each([
    [{}, undefined, /^--shard auto: no scheduler task index: neither SLURM_ARRAY_TASK_ID \(a Slurm job array\) nor JOB_COMPLETION_INDEX \(a Kubernetes Indexed Job\) is set; give --shard I\/N$/],
    [{ SLURM_ARRAY_TASK_ID: '2' }, undefined, /^--shard auto: SLURM_ARRAY_TASK_COUNT is not set \(SLURM_ARRAY_TASK_ID=2 needs SLURM_ARRAY_TASK_COUNT, _MIN and _MAX: is this a Slurm job array\?\)$/],
    [{ ...slurm(1, 1, 3), SLURM_ARRAY_TASK_MIN: '' }, undefined, /^--shard auto: SLURM_ARRAY_TASK_MIN is not set/],
    [{ ...slurm(1, 1, 3), SLURM_ARRAY_TASK_ID: 'two' }, undefined, /^--shard auto: SLURM_ARRAY_TASK_ID="two": expected a whole number$/],
    [slurm(3, 1, 7, 4), undefined, /^--shard auto: SLURM_ARRAY_TASK_COUNT=4 but the array runs 1–7: a stepped or sparse array \(7 ids\); submit a plain range such as --array=1-4, or give --shard I\/N$/],
    [slurm(9, 1, 3), undefined, /^--shard auto: SLURM_ARRAY_TASK_ID=9 is outside the array 1–3$/],
    [slurm(1, 1, 3), 4, /^--shards 4: the Slurm array has 3 tasks \(SLURM_ARRAY_TASK_COUNT\)$/],
    [{ JOB_COMPLETION_INDEX: '1' }, undefined, /^--shard auto: JOB_COMPLETION_INDEX=1 \(a Kubernetes Indexed Job\) needs --shards N, the Job's completions$/],
    [{ JOB_COMPLETION_INDEX: '3' }, 3, /^--shard auto: JOB_COMPLETION_INDEX=3 is not below --shards 3 \(indexes run 0–2: does --shards match the Job's completions\?\)$/],
    [{ JOB_COMPLETION_INDEX: '-1' }, 3, /^--shard auto: JOB_COMPLETION_INDEX="-1": expected a whole number$/],
    [{ JOB_COMPLETION_INDEX: '1', SLURM_ARRAY_TASK_ID: '1' }, 3, /^--shard auto: both SLURM_ARRAY_TASK_ID=1 \(Slurm\) and JOB_COMPLETION_INDEX=1 \(Kubernetes\) are set: give --shard I\/N$/],
  ] as const)('refuses %j (--shards %j) in one line', (env, shards, pattern) => {
    expect(() => shardFromEnv(env, shards)).toThrow(pattern);
  });
});
