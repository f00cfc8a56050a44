/**
 * The report's thread (report-thread.ts): loads vega and vega-lite as soon as it starts, then
 * builds the report of each summary it is sent with the same buildReport as the main thread.
 */
import { parentPort } from 'node:worker_threads';
import { buildReport, type TaiCounts } from './report.js';
import type { Summary } from './summary.js';

export type ReportRequest = { readonly summary: Summary; readonly taiCounts?: TaiCounts };
export type ReportAnswer = { readonly ok: true; readonly md: string; readonly html: string } | { readonly ok: false; readonly message: string; readonly stack?: string };


parentPort!.on('message', (req: ReportRequest) => {
  buildReport(req.summary, req.taiCounts).then(
    ({ md, html }) => parentPort!.postMessage({ ok: true, md, html } satisfies ReportAnswer),
    (err: unknown) => parentPort!.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err), ...(err instanceof Error && err.stack ? { stack: err.stack } : {}) } satisfies ReportAnswer),
  );
});
