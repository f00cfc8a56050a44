/**
 * `tw16 report` and the report written at the end of `tw16 run`: every chart is inline SVG,
 * the tables show the numbers of summary.json and wins.arrow, the page needs nothing from
 * the network, the output is byte-for-byte repeatable; the diff report; bad input; and,
 * where Debian's chromium is installed, a headless render with a screenshot.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tableFromIPC } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { ci, pct } from '../../../src/harness/analysis/format.js';
import { writeDiffReport, writeReport, type DiffReportInput } from '../../../src/harness/analysis/report.js';
import type { Estimate } from '../../../src/harness/analysis/stats.js';
import type { Summary } from '../../../src/harness/analysis/summary.js';
import { chromiumTitle, HAS_CHROMIUM, renderDom } from '../../support/chromium.js';

/** b − a with an independent-samples interval (the diff report only displays it). */
function change(a: Estimate, b: Estimate): Estimate {
  const mean = b.mean - a.mean;
  const se = Math.hypot(a.se, b.se);
  return { mean, se, lo: mean - 1.96 * se, hi: mean + 1.96 * se, df: Infinity, estimator: 'difference-welch-t' };
}

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(ROOT, 'bin/tw16.js');
const SMALL = join(ROOT, 'test/fixtures/experiments/small.json');

function tw16(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const tmp = (): string => mkdtempSync(join(tmpdir(), 'tw16-report-'));

/** The cells of every body row of every HTML table, as text. */
function tableRows(html: string): string[][] {
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  return [...html.matchAll(/<tr>((?:<td[^>]*>[^<]*<\/td>)+)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((c) => unescape(c[1]!)));
}

/** The HTML of one figure (chart + table) by its id. */
function figureHtml(html: string, id: string): string {
  const start = html.indexOf(`<figure id="${id}">`);
  expect(start, `figure ${id}`).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</figure>', start));
}

/** Every URL-looking string in a document. */
function urls(text: string): Set<string> {
  return new Set([...text.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)]+/gi)].map((m) => m[0]));
}

describe('tw16 report', () => {
  const dir = tmp();
  let summary: Summary;
  let runStdout = '';
  let html = '';
  let md = '';

  beforeAll(() => {
    const r = tw16(['run', SMALL, '--workers', '0', '--out', dir, '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    runStdout = r.stdout;
    summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;
    html = readFileSync(join(dir, 'report.html'), 'utf8');
    md = readFileSync(join(dir, 'report.md'), 'utf8');
  });

  it('is written at the end of tw16 run, which prints its path', () => {
    expect(runStdout).toContain(join(dir, 'report.html'));
    expect(existsSync(join(dir, 'report.md'))).toBe(true);
    expect(existsSync(join(dir, 'report.html.tmp'))).toBe(false);
  });

  it('holds each chart as inline SVG', () => {
    expect(summary.wins).toBeGreaterThan(0);
    for (const arm of summary.arms) {
      for (const chart of ['points', 'rates', 'tai', 'patterns']) {
        const fig = figureHtml(html, `arm${arm.arm}-${chart}`);
        expect(fig).toMatch(/<div class="chart"><svg [^>]*class="chart"[^>]*role="img"/);
        expect(fig).toContain('</svg>');
        expect(fig).toContain('<table');
      }
    }
    expect(html.match(/<svg /g)!.length).toBe(4 * summary.arms.length);
  });

  it('needs nothing from elsewhere: no URL but the SVG namespace, no link or external source, one inline script (the CJK font check)', () => {
    expect([...urls(html)].every((u) => u === 'http://www.w3.org/2000/svg'), [...urls(html)].join(' ')).toBe(true);
    expect(html).not.toMatch(/<link|<img|<iframe|\ssrc=|@import|@font-face|fetch\(|XMLHttpRequest/i);
    const scripts = [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
    expect(scripts).toEqual(['<script>']);
    expect(html.slice(html.indexOf('<script>'))).toMatch(/^<script>\n\(function \(\) \{\n  try \{\n    var c = document\.createElement\('canvas'\)/);
    expect([...urls(md)]).toEqual([]);
  });

  it('shows the numbers of summary.json in the tables beside the charts', () => {
    const arm = summary.arms[0]!;
    const points = tableRows(figureHtml(html, 'arm0-points'));
    expect(points.map((r) => r[0])).toEqual(arm.bots.map((b) => b.bot));
    for (const [i, b] of arm.bots.entries()) {
      const row = points[i]!;
      expect(row[1]!.replace(/,/g, '')).toBe(String(b.hands));
      expect(Number(row[2])).toBeCloseTo(b.pointsPerHand.mean, 3);
      expect(Number(row[3])).toBeCloseTo(b.pointsPerHand.lo, 3);
      expect(Number(row[4])).toBeCloseTo(b.pointsPerHand.hi, 3);
      // Raw and luck-adjusted side by side, in the table and in the chart.
      expect(Number(row[5])).toBeCloseTo(b.pointsPerHandAdjusted!.mean, 3);
      expect(Number(row[6])).toBeCloseTo(b.pointsPerHandAdjusted!.lo, 3);
      expect(Number(row[7])).toBeCloseTo(b.pointsPerHandAdjusted!.hi, 3);
    }
    expect(figureHtml(html, 'arm0-points')).toContain('luck-adjusted');
    const rates = tableRows(figureHtml(html, 'arm0-rates'));
    for (const [i, b] of arm.bots.entries()) expect(rates[i]).toEqual([b.bot, pct(b.winRate), pct(b.dealInRate), pct(b.selfDrawShare)]);

    const patterns = tableRows(figureHtml(html, 'arm0-patterns'));
    const seen = arm.patterns.filter((p) => p.wins > 0);
    expect(patterns.length).toBe(seen.length);
    for (const p of seen) {
      const row = patterns.find((r) => r[0] === p.pattern)!;
      expect(row, p.pattern).toBeDefined();
      expect(Number(row[1]!.replace(/,/g, ''))).toBe(p.wins);
      expect(Number(row[2])).toBeCloseTo(p.per1000Wins.mean, 1);
      expect(row[5]).toBe(ci(p.per1000Hands, 1));
    }
    // The markdown report carries the same tables as text.
    for (const b of arm.bots) expect(md).toContain(pct(b.winRate));
    for (const p of seen) expect(md).toMatch(new RegExp(`${p.pattern}\\s+${p.wins.toLocaleString('en-US')}\\s`));
  });

  it('counts the tai distribution from wins.arrow', () => {
    const wins = tableFromIPC(readFileSync(join(dir, 'wins.arrow')));
    const tai = wins.getChild('tai')!.toArray() as ArrayLike<number>;
    const expected = new Map<number, number>();
    for (let i = 0; i < tai.length; i++) expected.set(tai[i]!, (expected.get(tai[i]!) ?? 0) + 1);
    const rows = tableRows(figureHtml(html, 'arm0-tai'));
    expect(new Map(rows.map((r) => [Number(r[0]), Number(r[1]!.replace(/,/g, ''))]))).toEqual(expected);
    expect(rows.reduce((a, r) => a + Number(r[1]!.replace(/,/g, '')), 0)).toBe(summary.wins);
    expect(rows.at(-1)![3]).toBe('100.0');
  });

  it('is the same bytes every time', async () => {
    const again = await writeReport(dir);
    expect(readFileSync(again.html, 'utf8')).toBe(html);
    expect(readFileSync(again.md, 'utf8')).toBe(md);
    const r = tw16(['report', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(join(dir, 'report.html'));
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toBe(html);
  });

  it('fails in one line with exit code 2 when summary.json is missing or not a summary', () => {
    const empty = tmp();
    let r = tw16(['report', empty]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('summary.json');
    writeFileSync(join(empty, 'summary.json'), '{"arms": 3}');
    r = tw16(['report', empty]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    writeFileSync(join(empty, 'summary.json'), '{not json');
    r = tw16(['report', empty]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('writes a diff report with before/after bars for patterns and bot metrics', async () => {
    // B: the same run with every pattern frequency halved and every bot scoring one point less.
    const arm = summary.arms[0]!;
    const half = (e: Estimate): Estimate => ({ mean: e.mean / 2, lo: e.lo / 2, hi: e.hi / 2, se: e.se / 2 });
    const diff: DiffReportInput = {
      a: 'results/a',
      b: 'results/b',
      identical: false,
      patterns: arm.patterns.map((p) => ({ profile: arm.profile, pattern: p.pattern, a: p.per1000Wins, b: half(p.per1000Wins), change: change(p.per1000Wins, half(p.per1000Wins)), winsA: p.wins, winsB: Math.floor(p.wins / 2) })),
      bots: arm.bots.flatMap((b) => {
        const minus = { ...b.pointsPerHand, mean: b.pointsPerHand.mean - 1, lo: b.pointsPerHand.lo - 1, hi: b.pointsPerHand.hi - 1 };
        return [
          { profile: arm.profile, bot: b.bot, metric: 'pointsPerHand' as const, a: b.pointsPerHand, b: minus, change: change(b.pointsPerHand, minus) },
          { profile: arm.profile, bot: b.bot, metric: 'winRate' as const, a: b.winRate, b: b.winRate, change: change(b.winRate, b.winRate) },
        ];
      }),
    };
    const out = tmp();
    const files = await writeDiffReport(diff, out);
    const dhtml = readFileSync(files.html, 'utf8');
    expect(figureHtml(dhtml, 'diff0-bots')).toMatch(/<svg /);
    expect(figureHtml(dhtml, 'diff0-patterns')).toMatch(/<svg /);
    const botRows = tableRows(figureHtml(dhtml, 'diff0-bots'));
    expect(botRows).toHaveLength(diff.bots.length);
    expect(botRows[0]).toEqual([arm.bots[0]!.bot, 'points per seat-hand', ci(diff.bots[0]!.a, 3), ci(diff.bots[0]!.b, 3), ci(diff.bots[0]!.change, 3)]);
    const patRows = tableRows(figureHtml(dhtml, 'diff0-patterns'));
    expect(patRows.map((r) => r[0]).sort()).toEqual(arm.patterns.filter((p) => p.wins > 0).map((p) => p.pattern).sort());
    expect([...urls(dhtml)].every((u) => u.startsWith('http://www.w3.org/'))).toBe(true);
    expect(readFileSync(files.md, 'utf8')).toContain(ci(diff.bots[0]!.change, 3));
    const again = await writeDiffReport(diff, out);
    expect(readFileSync(again.html, 'utf8')).toBe(dhtml);
  });

  it.skipIf(!HAS_CHROMIUM)(
    chromiumTitle('renders in headless Chromium without errors and takes a screenshot'),
    () => {
      const png = join(dir, 'report.png');
      const r = spawnSync('bash', [join(ROOT, 'scripts/screenshot-report.sh'), join(dir, 'report.html'), png, '1280x1600'], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(`${4 * summary.arms.length} charts rendered`);
      expect(readFileSync(png).subarray(1, 4).toString('latin1')).toBe('PNG');
    },
  );
});

describe('the Chinese pattern names', () => {
  it('are marked for a CJK font and hidden, with a note, where none can draw them', async () => {
    const dir = tmp();
    const run = tw16(['run', SMALL, '--out', join(dir, 'r'), '--force', '--quiet', '--workers', '0']);
    expect(run.code, run.stderr).toBe(0);
    const html = readFileSync(join(dir, 'r', 'report.html'), 'utf8');
    expect(html).toMatch(/<td class="zh" lang="zh-Hant">[^<]*[\u4e00-\u9fff]/);
    expect(html).toContain('<p class="note no-cjk">');
    expect(html).toMatch(/body\.no-cjk \.zh \{ display: none; \}/);
    if (!HAS_CHROMIUM) return;
    // Chromium runs the page's check: with no CJK font on the machine the body is marked no-cjk.
    const fonts = spawnSync('fc-list', [':lang=zh-tw'], { encoding: 'utf8' });
    const hasCjk = fonts.status === 0 && fonts.stdout.trim() !== '';
    const r = renderDom(`file://${join(dir, 'r', 'report.html')}`);
    expect(r.errors).toEqual([]);
    expect(/<body class="no-cjk">/.test(r.dom)).toBe(!hasCjk);
  });
});
