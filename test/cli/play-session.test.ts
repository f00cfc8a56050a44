/**
 * `tw16 play` through a pipe (no terminal): `q` between hands ends the session with the scores so
 * far; the events line shows every event since the person's last decision (a claim is never
 * dropped); wrapped to the width, others' plain draws go first when space is short.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventLines } from '../../src/cli/screen.js';
import { BIN } from '../support/programs.js';

/** Play, answering 1 to every decision and `q` at the first "next hand" prompt; the output and exit code. */
function playThenQuit(args: string[]): Promise<{ code: number | null; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'tw16-session-'));
  const child = spawn(process.execPath, [BIN, 'play', ...args], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let answered = 0;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    out += chunk;
    if (/Enter: next hand · q: quit $/.test(out)) child.stdin.write('q\n');
    else if (/choose 1-\d+[^:\n]*: $/.test(out) && out.length > answered) {
      answered = out.length;
      child.stdin.write('1\n');
    }
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

describe('tw16 play sessions', () => {
  it('q between hands ends the game with the scores so far', async () => {
    const r = await playThenQuit(['--seed', 'quit', '--hands', '3', '--bots', 'greedy']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\nScores after 1 hand: you [+-]?\d+ · seat 1 greedy [+-]?\d+ · seat 2 greedy [+-]?\d+ · seat 3 greedy [+-]?\d+\nyour decisions are in tw16-play-quit\.jsonl\n$/);
  }, 60_000);

  it('the events line keeps every event, and drops plain draws before a claim', () => {
    const log = ['seat 1 (S) draws', 'seat 1 (S) discards 5m', 'seat 2 (W) claims pung 5m from seat 1 (S)', 'seat 2 (W) discards 9p', 'seat 3 (N) draws', 'seat 3 (N) discards 1z', 'you draw 3s'];
    expect(eventLines(log, 200)).toEqual([log.join(' · ')]);
    const wrapped = eventLines(log, 60);
    expect(wrapped.join(' · ')).toBe(log.join(' · '));
    expect(wrapped.every((l) => l.length <= 60)).toBe(true);
    // Short of lines: the others' draws go first, the pung stays.
    const many = Array.from({ length: 30 }, (_, i) => [`seat ${1 + (i % 3)} (S) draws`, `seat ${1 + (i % 3)} (S) discards ${1 + (i % 9)}m`]).flat();
    many.splice(40, 0, 'seat 2 (W) claims pung 5m from seat 1 (S)');
    const short = eventLines(many, 80, 4);
    expect(short.length).toBeLessThanOrEqual(4);
    expect(short.join(' ')).toContain('claims pung 5m');
    expect(short.join(' ').replace(/^\([^)]*\) /, '')).not.toMatch(/ draws/);
    expect(short[0]).toMatch(/^\(\d+ not shown: others' draws, then discards, oldest first\) /);
  });
});
