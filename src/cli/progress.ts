/**
 * Progress of a run on stderr: a bar redrawn in place on a terminal, or (CI, nohup, a pipe) one
 * line every `everyMs`, so a long run shows it is alive. `now` is injectable for tests.
 */
import type { Progress } from '../harness/run/run.js';

/** `3.2 s`, `4 min 5 s`, `2 h 3 min`. */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

function numbers(p: Progress): { frac: number; rate: number; eta: number } {
  const frac = p.dealsDone / p.deals;
  const rate = p.seconds > 0 ? p.hands / p.seconds : 0;
  // This invocation's pace (a resumed run started with some deals done).
  const doneHere = p.dealsDone - p.dealsAtStart;
  return { frac, rate, eta: doneHere > 0 ? ((p.deals - p.dealsDone) * p.seconds) / doneHere : NaN };
}

/** The line written when stderr is not a terminal. */
export function progressLine(p: Progress): string {
  const { frac, rate, eta } = numbers(p);
  return `tw16: ${(frac * 100).toFixed(1)}% of ${p.deals.toLocaleString('en-US')} deals, ${p.hands.toLocaleString('en-US')} hands played, ${Math.round(rate).toLocaleString('en-US')} hands/s, ETA ${duration(eta)}\n`;
}

/** A progress reporter writing to `write`: a bar on a terminal, else a line every `everyMs`. */
export function progressReporter(tty: boolean, write: (s: string) => void, everyMs = 10_000, now = () => performance.now()): (p: Progress) => void {
  let last = now();
  if (!tty) {
    return (p) => {
      if (now() - last < everyMs) return;
      last = now();
      write(progressLine(p));
    };
  }
  return (p) => {
    if (now() - last < 200 && p.dealsDone < p.deals) return;
    last = now();
    const { frac, rate, eta } = numbers(p);
    const width = 30;
    const filled = Math.round(frac * width);
    write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(frac * 100).toFixed(1).padStart(5)}%  ${p.hands.toLocaleString('en-US')} hands  ${Math.round(rate).toLocaleString('en-US')} hands/s  ETA ${duration(eta)}   `);
  };
}
