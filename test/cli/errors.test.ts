/**
 * One error family: every "bad input" class is an InputError (exit 2) under its own name, I/O
 * failures are IoErrors (exit 3) naming the path and the OS error, and a user sees one line
 * unless --debug.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BotLoadError } from '../../bots/index.js';
import { EXIT, errorMessage, exitCodeOf } from '../../src/cli/main.js';
import { InputError, IoError, UsageError } from '../../src/core/errors.js';
import { NotationError } from '../../src/core/tiles.js';
import { BotError } from '../../src/engine/types.js';
import { ReportInputError } from '../../src/harness/analysis/report.js';
import { CaseError, HandNotationError, ProfileError, SettleError } from '../../src/rules/index.js';

describe('the error family', () => {
  const inputs: [string, Error][] = [
    ['UsageError', new UsageError('u')],
    ['ProfileError', new ProfileError('p')],
    ['CaseError', new CaseError('c')],
    ['HandNotationError', new HandNotationError('h')],
    ['SettleError', new SettleError('s')],
    ['NotationError', new NotationError('12x', 2, 'no suit')],
    ['BotLoadError', new BotLoadError('b')],
    ['ReportInputError', new ReportInputError('r')],
  ];
  for (const [name, err] of inputs) {
    it(`${name} is bad input (exit 2) and keeps its name`, () => {
      expect(err).toBeInstanceOf(InputError);
      expect(err.name).toBe(name);
      expect(exitCodeOf(err)).toBe(2);
    });
  }

  it('an I/O failure is exit 3 and names the path and the OS error, raw Node errors included', () => {
    const enospc = Object.assign(new Error("ENOSPC: no space left on device, write '/r/hands.arrow'"), { code: 'ENOSPC', syscall: 'write', path: '/r/hands.arrow' });
    const io = new IoError('/r/hands.arrow', 'write', enospc);
    expect(io.message).toBe('cannot write /r/hands.arrow: ENOSPC (no space left on device)');
    expect(exitCodeOf(io)).toBe(3);
    expect(exitCodeOf(enospc)).toBe(3);
    expect(errorMessage(enospc, false)).toBe('tw16: cannot write /r/hands.arrow: ENOSPC (no space left on device)\n');
  });

  it('a bot error is exit 1, anything else is a bug (exit 70), said as such', () => {
    expect(exitCodeOf(new BotError('bot "x" threw', { handKey: 1, dealer: 0, round: 0, streak: 0 }, 'x', 0, undefined, []))).toBe(1);
    const bug = new TypeError('Invalid typed array length: -1904476156');
    expect(exitCodeOf(bug)).toBe(70);
    expect(errorMessage(bug, false)).toBe('tw16: internal error (a bug in tw16; --debug shows where): Invalid typed array length: -1904476156\n');
  });

  it('prints one line, and the stack only with --debug', () => {
    const err = new UsageError('--hands: expected a whole number');
    expect(errorMessage(err, false)).toBe('tw16: --hands: expected a whole number\n');
    const debug = errorMessage(err, true);
    expect(debug.split('\n').length).toBeGreaterThan(3);
    expect(debug).toMatch(/\n\s+at /);
  });
});

describe('exit codes are decided in one place', () => {
  it('EXIT holds the documented numbers (docs/faults.md)', () => {
    expect(EXIT).toEqual({ OK: 0, BOT_ERROR_OR_DIFFERENT: 1, BAD_INPUT: 2, IO_FAILURE: 3, INTERNAL: 70, INTERRUPTED: 130 });
  });

  it('no source sets an exit code by number: every code is an EXIT constant or exitCodeOf(error)', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const literal = /process\.exit(?:Code\s*=\s*|\(\s*)\d/;
    const found = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && d.name.endsWith('.ts'))
      .flatMap((d) => readFileSync(join(d.parentPath, d.name), 'utf8').split('\n').map((l, i) => [join(d.parentPath, d.name), i + 1, l] as const))
      .filter(([, , l]) => literal.test(l))
      .map(([f, n]) => `${f}:${n}`);
    expect(found).toEqual([]);
    expect(literal.test('process.exitCode = 2;')).toBe(true); // the check can fire
    expect(literal.test('process.exitCode = EXIT.BAD_INPUT;')).toBe(false);
  });
});

