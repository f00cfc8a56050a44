/**
 * The piscina worker: runs one job and moves (not copies) its column buffers back to the
 * main thread. Workers only compute; the main thread plans, orders and writes.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { transferables } from './columns.js';
import { runJob, type Job, type JobResult } from './job.js';

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
