/**
 * python/tw16env's own tests (python/tests, unittest), run with a python3 that can import numpy —
 * the PATH's first, else Debian's /usr/bin/python3 — so `npm test` covers the Python package;
 * skipped, saying why, only when no python3 with numpy is there. And: the environment's engine
 * side drives the one hand stepper (no copy of the hand loop).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/programs.js';
import { pythonWithNumpy } from '../support/python.js';

const PY = pythonWithNumpy();
if (!PY) console.warn('no python3 with numpy (apt-get install python3-numpy): the tests of python/tw16env are skipped');

describe('python/tw16env', () => {
  it.skipIf(!PY)('its unittest suite passes (API rules over 2,000 hands, replay, vector, lifetime, spaces with and without gymnasium, observations, Arrow reader)', () => {
    const r = spawnSync(PY!, ['-m', 'unittest', 'discover', '-s', 'python/tests', '-v'], { cwd: ROOT, encoding: 'utf8', timeout: 900_000, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
    const tail = r.stderr.split('\n').slice(-40).join('\n');
    expect(r.status, tail).toBe(0);
    expect(r.stderr).toMatch(/\nOK\n/);
    expect(r.stderr).toMatch(/Ran (\d\d+) tests/);
  }, 900_000);

  it('the environment drives the hand and match steppers, never the table itself', () => {
    const src = readFileSync(join(ROOT, 'src/harness/run/env.ts'), 'utf8');
    expect(src).toMatch(/new HandStepper\(\)/);
    expect(src).toMatch(/new MatchStepper\(/);
    // No table of its own, no stepping it directly: every answer goes through the stepper's give/run.
    expect(src).not.toMatch(/new Table\(|\.apply\(|\.step\(\s*\w+\s*,|from '\.\.\/\.\.\/engine\/table\.js'/);
    expect(src).toMatch(/\.st\.give\(/);
    expect(src).toMatch(/\.st\.run\(\)/);
  });
});
