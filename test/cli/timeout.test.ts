/**
 * `tw16 replay` and `tw16 play` stop a bot that does not return, as `tw16 run` does, after
 * `--decision-timeout` seconds (default 5): the replay command a run prints for a hung bot
 * reproduces the error instead of hanging, `--html` still writes the hand up to it, and a
 * person playing against a hung bot gets the error and the replay command back. Each runs as a
 * subprocess with a time limit of its own, so a tw16 that hangs fails the test instead of
 * hanging it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../support/programs.js';

/** Never returns from its first decision in hand key 5. */
const HANGS = join(ROOT, 'test/fixtures/bots/hangs.mjs');

function tw16(args: string[], input = '', cwd = ROOT): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, input, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('--decision-timeout in replay and play', () => {
  it('tw16 replay stops a hung bot after the limit (exit 1), naming it; --html writes the hand up to it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-timeout-'));
    const html = join(dir, 'hand.html');
    const r = tw16(['replay', '--seed', 'hangs-1', '--hand', '5', '--bots', `random,${HANGS}`, '--decision-timeout', '0.5', '--html', html]);
    expect(r.code, r.err).toBe(1);
    expect(r.err).toMatch(/^tw16: bot ".*hangs\.mjs" \(seat \d\) in hand 5 .*did not return within 0\.5 s \(--decision-timeout\)/);
    expect(r.err).toContain('reproduce: tw16 replay --seed hangs-1 --hand 5');
    expect(r.out).toMatch(/^hand 5 · seed hangs-1/);
    expect(existsSync(html)).toBe(true);
    expect(readFileSync(html, 'utf8')).toContain('did not return within 0.5 s');
  });

  it('0 turns the limit off (the bot then runs in this thread); a bad limit is exit 2', () => {
    const ok = tw16(['replay', '--seed', 'hangs-1', '--hand', '4', '--bots', `random,${HANGS}`, '--decision-timeout', '0']);
    expect(ok.code, ok.err).toBe(0);
    const bad = tw16(['replay', '--seed', 'hangs-1', '--hand', '4', '--decision-timeout', '-1']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--decision-timeout');
  });

  it('a bot in a thread of its own plays exactly as in this thread: same rng stream, same view', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-timeout-'));
    const bot = join(dir, 'reader.mjs');
    // Decides from its stream and from every part of the view, so any difference shows in the hand.
    writeFileSync(
      bot,
      `export default (seat, rng, rules) => {
  const first = rng();
  return {
    decide(view, legal) {
      let h = Math.floor(first * 1000) + view.turns + view.wallLeft + view.handSize + (view.drawn + 1) + (view.offered + 1) + view.streak + rules.minTai;
      for (let s = 0; s < 4; s++) {
        h += view.meldCount(s) * 7 + view.flowers(s) + view.discardCount(s) + (view.isReady(s) ? 3 : 0);
        for (let i = 0; i < view.meldCount(s); i++) h += view.meldTile(s, i) + view.meldKind(s, i).length + view.meldFrom(s, i) * 3 + view.meldClaimed(s, i) * 5 + (view.meldAdded(s, i) ? 11 : 0);
        for (let i = 0; i < view.discardCount(s); i++) h += view.discardAt(s, i);
        for (let t = 0; t < 34; t++) h += view.hasDiscarded(s, t) ? t : 0;
      }
      for (let t = 0; t < 34; t++) h += view.visible(t) * t + view.hand[t];
      return legal[(h + Math.floor(rng() * legal.length)) % legal.length];
    },
  };
};
`,
    );
    for (const hand of ['0', '9', '22']) {
      const args = ['replay', '--seed', 'same', '--hand', hand, '--rules', 'full', '--bots', `${bot},greedy,${bot},random`];
      const thread = tw16([...args, '--decision-timeout', '5']);
      const here = tw16([...args, '--decision-timeout', '0']);
      expect(thread.code, thread.err).toBe(0);
      expect(here.code, here.err).toBe(0);
      expect(thread.out).toBe(here.out);
    }
  });

  it('tw16 play stops a hung bot after the limit (exit 1) with the replay command', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-timeout-'));
    const bot = join(dir, 'stuck.mjs');
    writeFileSync(bot, 'export default () => ({ decide() { for (;;); } });\n');
    // Seat 0 deals: the person discards first (any answer: "1" each time), then a bot must decide.
    const r = tw16(['play', '--seed', 'stuck', '--seat', '0', '--bots', './stuck.mjs', '--decision-timeout', '0.5'], '1\n'.repeat(40), dir);
    expect(r.code, r.err).toBe(1);
    expect(r.err).toMatch(/bot ".*stuck\.mjs" \(seat [123]\) in hand 0 .*did not return within 0\.5 s/);
    expect(r.err).toContain(`reproduce: tw16 replay --seed stuck --hand 0`);
    expect(r.err).toContain(bot); // the bot by its absolute path: the command runs from anywhere
  });
});
