/**
 * The piscina worker: runs one job, encodes its rows as the journals' record batches, and moves
 * (not copies) its column buffers and those bytes back to the main thread. Workers compute and
 * encode; the main thread plans, orders, writes and hashes.
 */
import { move, transferableSymbol, valueSymbol, workerData } from 'piscina';
import { adoptHandTables } from '../../hand/tables.js';
import { transferables } from '../io/columns.js';
import { encodeJournalBatch } from '../io/journal.js';
import { handColumns, WIN_COLUMNS } from '../results/records.js';
import { runJob, type Job, type JobResult } from './job.js';
import { adoptHeartbeats } from '../players/watchdog.js';
import { closePrograms } from './tables.js';
import { adoptChildList } from '../players/children.js';

const data = workerData as { handTables?: Parameters<typeof adoptHandTables>[0]; heartbeats?: SharedArrayBuffer; children?: SharedArrayBuffer; closeChannel?: string } | undefined;
// Hand tables built once by the main thread in shared memory (run.ts): no build per worker.
if (data?.handTables) adoptHandTables(data.handTables);
// The heartbeat slots the main thread's watchdog samples (watchdog.ts).
if (data?.heartbeats) adoptHeartbeats(data.heartbeats);
// Bot programs this worker starts are listed where the main thread can kill them (src/harness/players/children.ts),
// and ended when the main thread says the run is over.
if (data?.children) adoptChildList(data.children);
// (Held at module level: a channel nothing refers to may be collected, and its messages lost.)
const closeChannel = data?.closeChannel ? new BroadcastChannel(data.closeChannel) : undefined;
if (closeChannel) {
  closeChannel.onmessage = () => void closePrograms();
  (closeChannel as unknown as { unref(): void }).unref();
}

export default async function work(job: Job): Promise<unknown> {
  const played: JobResult = await runJob(job);
  // The journals' record batches are encoded here, beside the play, not on the main thread.
  const result: JobResult = played.error ? played : { ...played, journal: { hands: encodeJournalBatch(handColumns(job.experiment), played.hands), wins: encodeJournalBatch(WIN_COLUMNS, played.wins) } };
  return move({
    get [transferableSymbol]() {
      const j = result.journal ? [result.journal.hands.buffer as ArrayBuffer, result.journal.wins.buffer as ArrayBuffer] : [];
      return [...transferables(result.hands), ...transferables(result.wins), ...(result.decisions ? transferables(result.decisions) : []), ...j];
    },
    get [valueSymbol]() {
      return result;
    },
  } as never);
}
