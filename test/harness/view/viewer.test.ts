/**
 * The hand viewer (`tw16 replay --html`, src/harness/view/viewer.ts): one self-contained page per
 * hand, the same bytes every time; a hand stopped by a bot error is drawn up to it; and, where
 * Debian's chromium is installed, the page rendered headless: no page errors, `#step=N` shows
 * step N, the buttons and arrow keys step, the last step shows the winner's tai, a screenshot.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { playHand, type HandResult } from '../../../src/engine/index.js';
import { getProfile } from '../../../src/rules/index.js';
import { defensive, greedy, value } from '../../../bots/index.js';
import { run } from '../../support/cli.js';
import { chromiumTitle, HAS_CHROMIUM, renderDom } from '../../support/chromium.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

afterEach(() => {
  process.exitCode = 0;
});

const dir = mkdtempSync(join(tmpdir(), 'tw16-viewer-'));
/** A hand with flowers, claims and a self-drawn win: seed demo, hand 7 (dealer seat 3, round S). */
const HAND = ['replay', '--seed', 'demo', '--hand', '7', '--bots', 'greedy,value,defensive,greedy'];

/** The step texts of the page's log, in order. */
function stepTexts(html: string): string[] {
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  return [...html.matchAll(/<li data-i="\d+"[^>]*>([^<]*)<\/li>/g)].map((m) => unescape(m[1]!));
}

/** Render `file` at `#step=N` in headless Chromium with the network off: the DOM after the page's script ran, and the page's errors. */
function render(file: string, step: number): { dom: string; errors: string[] } {
  const r = renderDom(`file://${file}#step=${step}`);
  expect(r.status === 0 || r.errors.length > 0, r.errors.join('\n')).toBe(true);
  return r;
}

/** What the rendered page shows: its step number, the highlighted action, the current log entry, whether the result is shown. */
function shown(dom: string) {
  return {
    step: Number(/<output id="no">(\d+)<\/output>/.exec(dom)?.[1]),
    now: /<p id="now" class="now">([^<]*)<\/p>/.exec(dom)?.[1],
    current: /<li data-i="(\d+)" class="cur">/.exec(dom)?.[1],
    result: /<div id="result" class="result">/.test(dom),
  };
}

describe('tw16 replay --html', () => {
  const page = join(dir, 'hand.html');
  let html = '';
  let result: HandResult;

  beforeAll(async () => {
    const r = await run([...HAND, '--html', page]);
    expect(r.code).toBe(0);
    html = readFileSync(page, 'utf8');
    result = playHand({ rules: getProfile('p0'), seed: 'demo', handKey: 7, dealer: 3, round: 1, streak: 0, bots: [greedy, value, defensive, greedy] });
  });

  it('writes one self-contained page: inline SVG tiles and script, no URL but the SVG namespace, nothing loaded', () => {
    const urls = [...html.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)]+/gi)].map((m) => m[0]);
    expect(urls.every((u) => u === 'http://www.w3.org/2000/svg'), urls.join(' ')).toBe(true);
    expect(html).not.toMatch(/<link|<img|<iframe|\ssrc=|@import|@font-face|url\(/i);
    expect(html.match(/<symbol id="t\d+"/g)).toHaveLength(42);
    expect(html).toContain('<symbol id="t33" viewBox="0 0 30 40">');
    expect(html).toMatch(/<symbol id="t33"[^]*?>Rd<\/text>[^]*?>7z<\/text><\/symbol>/);
  });

  it('lists every step as tw16 replay tells it, ending with the win, its tai and the payments', () => {
    const steps = stepTexts(html);
    expect(steps[0]).toBe('seat 3 (E) deals: 16 tiles each, 17 to the dealer');
    expect(steps).toContain('seat 1 (W) claims chow 456s from seat 0 (S)');
    const w = result.winners[0]!;
    expect(steps.at(-1)).toBe(`seat ${w.seat} (N) wins by self-draw on 3m: ${w.tai} tai`);
    expect(html).toContain(`<strong class="total" data-seat="${w.seat}">${w.tai} tai</strong>`);
    expect([...html.matchAll(/<td class="pay">([^<]*)<\/td>/g)].map((m) => Number(m[1]))).toEqual(result.deltas);
  });

  it('is the same bytes every time', async () => {
    const again = join(dir, 'again.html');
    expect((await run([...HAND, '--html', again])).code).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(html);
  });

  it('draws a hand a bot error stopped, up to the error, and still exits 1', async () => {
    const bot = join(dir, 'breaks.mjs');
    writeFileSync(bot, 'export default () => { let n = 0; return { decide: (view, legal) => { if (++n > 5) throw new Error("boom"); return legal[legal.length - 1]; } }; };\n');
    const stopped = join(dir, 'stopped.html');
    const r = await run(['replay', '--seed', 'demo', '--hand', '7', '--bots', `${bot},greedy,greedy,greedy`, '--html', stopped]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('threw: boom');
    const last = stepTexts(readFileSync(stopped, 'utf8')).at(-1)!;
    expect(last).toMatch(/^stopped: bot ".*breaks\.mjs" \(seat 0\) in hand 7 threw: boom/);
    expect(readFileSync(stopped, 'utf8')).toContain('The hand stopped: bot');
  });

  it.skipIf(!HAS_CHROMIUM)(chromiumTitle('the page check fires on a page that logs an error or throws'), () => {
    const bad = join(dir, 'bad.html');
    writeFileSync(bad, '<!doctype html><title>bad</title><p>x</p><script>console.error("broken page")</script><script>throw new Error("thrown here")</script>');
    const r = renderDom(`file://${bad}`);
    expect(r.status).toBe(1);
    expect(r.errors.join('\n')).toMatch(/CONSOLE|broken page/);
    expect(r.errors.join('\n')).toMatch(/Uncaught.*thrown here/);
  });

  it.skipIf(!HAS_CHROMIUM)(
    chromiumTitle('renders in headless Chromium: #step=N shows step N, the buttons and keys step, the last step shows the tai'),
    () => {
      const steps = stepTexts(html);
      const mid = render(page, 60);
      expect(mid.errors).toEqual([]);
      expect(shown(mid.dom)).toEqual({ step: 60, now: steps[59], current: '59', result: false });
      expect(mid.dom).toMatch(/<div class="seat act" id="seat1">/);

      const end = render(page, steps.length);
      expect(end.errors).toEqual([]);
      expect(shown(end.dom)).toEqual({ step: steps.length, now: steps.at(-1), current: String(steps.length - 1), result: true });
      expect(end.dom).toContain(`<strong class="total" data-seat="2">${result.winners[0]!.tai} tai</strong>`);
      expect(shown(render(page, 100_000).dom).step).toBe(steps.length);

      // The same page with a script that clicks "next" twice and presses ←: from step 10 to 11.
      const driven = join(dir, 'driven.html');
      writeFileSync(driven, html.replace('</body>', '<script>$("next").click(); $("next").click(); dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft" }));</script>\n</body>'));
      const moved = render(driven, 10);
      expect(moved.errors).toEqual([]);
      expect(shown(moved.dom)).toMatchObject({ step: 11, now: steps[10] });

      const png = join(dir, 'mid.png');
      const shot = spawnSync('bash', [join(ROOT, 'scripts/screenshot-hand.sh'), page, '60', png, '1280x900'], { encoding: 'utf8' });
      expect(shot.stderr).toBe('');
      expect(shot.status).toBe(0);
      expect(readFileSync(png).subarray(1, 4).toString('latin1')).toBe('PNG');
    },
  );
});
