/**
 * deploy/slurm/ on a real Slurm: scripts/slurm-cluster.sh starts a one-node cluster on this
 * machine (Debian's slurm-wlm and munge; .ci/run installs them), the array script runs an
 * experiment as 3 array tasks with `sbatch --wait`, and the shards, merged, must be the bytes of
 * the same experiment run on its own; then one shard is rerun alone, as docs/clusters.md says, and
 * merged again. The cluster is torn down after (and by .ci/run, should this process die).
 * Skips, saying so, only when the packages are not installed or this is not root (slurmd runs jobs
 * as their user).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/tw16.js');
const CLUSTER = join(ROOT, 'scripts/slurm-cluster.sh');
const SBATCH = join(ROOT, 'deploy/slurm/tw16-array.sbatch');
const EXP = join(ROOT, 'test/fixtures/experiments/small.json');
const RESULT_FILES = ['hands.arrow', 'manifest.json', 'report.html', 'report.md', 'summary.json', 'wins.arrow'];

const installed = spawnSync(CLUSTER, ['check'], { encoding: 'utf8' });
const isRoot = process.getuid?.() === 0;
const why = installed.status !== 0 ? `${installed.stderr.trim() || 'slurm-wlm and munge are not installed'}; .ci/run installs them` : !isRoot ? 'not root (slurmd starts jobs as their user)' : undefined;
if (why) console.warn(`test/deploy/slurm: SKIPPED: the single-node Slurm cluster cannot be started here: ${why}`);

/** A free TCP port on this machine. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe.skipIf(why !== undefined)('deploy/slurm on a single-node Slurm cluster', () => {
  // .ci/run gives a directory it tears down itself, should this process die before afterAll.
  const base = process.env.TW16_SLURM_DIR ?? mkdtempSync(join(tmpdir(), 'tw16-slurm-'));
  const cluster = join(base, 'cluster');
  const work = mkdtempSync(join(base, 'work-'));
  let env: NodeJS.ProcessEnv = {};

  const sh = (cmd: string, args: readonly string[], timeoutS: number, extra: NodeJS.ProcessEnv = {}) => {
    const r = spawnSync(cmd, args, { cwd: work, encoding: 'utf8', env: { ...env, ...extra }, timeout: timeoutS * 1000, killSignal: 'SIGKILL' });
    return { code: r.status, signal: r.signal, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
  };
  /** The array tasks' own output, for a failure message. */
  const taskLogs = (): string =>
    readdirSync(work)
      .filter((f) => f.startsWith('slurm-'))
      .map((f) => `--- ${f}\n${readFileSync(join(work, f), 'utf8')}`)
      .join('\n');
  const tw16 = (args: readonly string[]) => sh(process.execPath, [BIN, ...args], 120);
  const expectSameAsSingle = (dir: string): void => {
    for (const f of RESULT_FILES) expect(readFileSync(join(dir, f)).equals(readFileSync(join(work, 'single', f))), `${dir}/${f}`).toBe(true);
  };

  beforeAll(async () => {
    const [ctld, d] = [await freePort(), await freePort()];
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SLURM_') && k !== 'JOB_COMPLETION_INDEX'));
    env = { ...clean, SLURM_CONF: join(cluster, 'slurm.conf') };
    const up = sh(CLUSTER, ['up', cluster], 100, { TW16_SLURM_PORT: String(ctld), TW16_SLURMD_PORT: String(d) });
    expect(up.code, up.out).toBe(0);
  }, 120_000);

  afterAll(() => {
    const down = sh(CLUSTER, ['down', cluster], 60);
    if (!process.env.TW16_SLURM_DIR) rmSync(base, { recursive: true, force: true });
    else rmSync(work, { recursive: true, force: true });
    expect(down.code, down.out).toBe(0);
  }, 90_000);

  it('an array job of 3 tasks (sbatch --wait) writes 3 shards whose merge is the single run, byte for byte; one shard rerun alone merges to the same bytes', () => {
    const single = tw16(['run', EXP, '--out', join(work, 'single'), '--workers', '1', '--quiet']);
    expect(single.code, single.out).toBe(0);

    const shards = join(work, 'shards');
    const submit = (array: string, extra: string[] = []) =>
      sh('sbatch', ['--wait', `--array=${array}`, '--cpus-per-task=1', '--mem-per-cpu=256M', '--time=10', `--output=${join(work, 'slurm-%A_%a.out')}`, ...extra, SBATCH, EXP, shards, '--quiet'], 240, {
        TW16: `${process.execPath} ${BIN}`,
      });
    const array = submit('1-3');
    expect(array.code, `${array.out}\n${taskLogs()}`).toBe(0);
    expect(readdirSync(shards).sort()).toEqual(['shard-1-of-3', 'shard-2-of-3', 'shard-3-of-3']);
    const merged = tw16(['merge', join(work, 'merged'), join(shards, 'shard-*'), '--quiet']);
    expect(merged.code, merged.out).toBe(0);
    expect(merged.out).toMatch(/^merged 3 shards: 120 deals, 720 hands/);
    expectSameAsSingle(join(work, 'merged'));

    // Shard 2 lost (a failed task): rerun it alone, as docs/clusters.md says.
    rmSync(join(shards, 'shard-2-of-3'), { recursive: true });
    const missing = tw16(['merge', join(work, 'merged-again'), join(shards, 'shard-*')]);
    expect(missing.code).toBe(2);
    expect(missing.out).toMatch(/missing shard 2\/3 \(deals 40–79\)/);
    const rerun = submit('2', ['--export=ALL,TW16_SHARD=2/3']);
    expect(rerun.code, `${rerun.out}\n${taskLogs()}`).toBe(0);
    const again = tw16(['merge', join(work, 'merged-again'), join(shards, 'shard-*'), '--quiet']);
    expect(again.code, again.out).toBe(0);
    expectSameAsSingle(join(work, 'merged-again'));

    const queue = sh('squeue', ['-h'], 30);
    expect(queue.code, queue.out).toBe(0);
    expect(queue.out.trim()).toBe('');
    expect(existsSync(join(cluster, 'slurmctld.pid'))).toBe(true);
  }, 420_000);
});
