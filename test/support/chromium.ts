/**
 * Headless Chromium for the page tests (the report, the hand viewer): Debian's `chromium`, run
 * through scripts/chromium.sh (the one place that knows Chromium's flags and what counts as a
 * page error), skipped with a message where it is not installed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ROOT } from './programs.js';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);

/** The title of a test that needs Chromium: as given, or saying why it is skipped. */
export function chromiumTitle(title: string): string {
  return HAS_CHROMIUM ? title : `${title} — SKIPPED: ${CHROMIUM} is not installed (apt-get install chromium)`;
}

/** The DOM Chromium builds for `url` with the network off, and the page's errors (none on a clean page). */
export function renderDom(url: string): { dom: string; errors: string[]; status: number } {
  const r = spawnSync('bash', [`${ROOT}/scripts/chromium.sh`, 'dom', url], { encoding: 'utf8', timeout: 60_000 });
  return { dom: r.stdout, errors: r.status === 0 ? [] : r.stderr.split('\n').filter(Boolean), status: r.status ?? -1 };
}
