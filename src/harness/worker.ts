/**
 * The piscina worker: runs one job and moves (not copies) its column buffers back to the
 * main thread. Workers only compute; the main thread plans, orders and writes.
 */
import { move, transferableSymbol, valueSymbol, workerData } from 'piscina';
import { adoptHandTables } from '../hand/tables.js';
import { transferables } from './columns.js';
import { runJob, type Job, type JobResult } from './job.js';
import { adoptHeartbeats } from './watchdog.js';

const data = workerData as { handTables?: Parameters<typeof adoptHandTables>[0]; heartbeats?: SharedArrayBuffer } | undefined;
// Hand tables built once by the main thread in shared memory (run.ts): no build per worker.
if (data?.handTables) adoptHandTables(data.handTables);
// The heartbeat slots the main thread's watchdog samples (watchdog.ts).
if (data?.heartbeats) adoptHeartbeats(data.heartbeats);

export default async function work(job: Job): Promise<unknown> {
  const result: JobResult = await runJob(job);
  return move({
    get [transferableSymbol]() {
      return [...transferables(result.hands), ...transferables(result.wins)];
    },
    get [valueSymbol]() {
      return result;
    },
  } as never);
}
