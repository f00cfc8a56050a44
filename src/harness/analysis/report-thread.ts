/**
 * A run's report built in a thread of its own, started with the run: vega and vega-lite (a few
 * hundred ms to import) load there while the run plays and summarizes, and the charts render
 * there. It runs the same buildReport (report-worker.ts) as `tw16 report` does in its own thread,
 * so the bytes are the same.
 */
import { Worker } from 'node:worker_threads';
import type { TaiCounts } from './report.js';
import type { ReportAnswer, ReportRequest } from './report-worker.js';
import type { Summary } from './summary.js';

/** The compiled worker: beside this file, or in dist/ when this runs from sources (vitest). */
function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL(here.replace(/\/src\/harness\/analysis\/report-thread\.ts$/, '/dist/src/harness/analysis/report-worker.js')) : new URL('./report-worker.js', here);
}

/** An error of buildReport in the report's thread, with its stack there. */
class ReportThreadError extends Error {
  constructor(message: string, stack?: string) {
    super(message);
    if (stack) this.stack = stack;
  }
}

export class ReportThread {
  private readonly worker = new Worker(workerUrl());
  private waiting: { resolve: (r: { md: string; html: string }) => void; reject: (err: unknown) => void } | undefined;
  private failure: unknown;

  constructor() {
    this.worker.unref(); // it never keeps tw16 running
    this.worker.on('message', (a: ReportAnswer) => {
      const w = this.waiting;
      this.waiting = undefined;
      if (a.ok) w?.resolve({ md: a.md, html: a.html });
      else w?.reject(new ReportThreadError(a.message, a.stack));
    });
    const fail = (err: unknown): void => {
      this.failure ??= err;
      this.waiting?.reject(this.failure);
      this.waiting = undefined;
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the report's thread ended (exit code ${code}) before the report was built`)));
  }

  /** report.md and report.html of `summary` (buildReport's), one request at a time. */
  build(summary: Summary, taiCounts?: TaiCounts): Promise<{ md: string; html: string }> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.waiting) return Promise.reject(new Error('(tw16 bug) a second report asked of the report thread before the first was built'));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.worker.postMessage({ summary, ...(taiCounts ? { taiCounts } : {}) } satisfies ReportRequest);
    });
  }

  /** End the thread (a run ends it whether it built a report or not). */
  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    this.failure ??= new Error("the report's thread ended: closed");
    this.waiting?.reject(this.failure);
    this.waiting = undefined;
    await this.worker.terminate();
  }
}
