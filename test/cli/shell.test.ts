/** Words of printed commands (replay, resume) survive a POSIX shell as they were. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote } from '../../src/core/shell.js';

describe('shellQuote', () => {
  it('leaves plain words alone and quotes the rest so sh reads them back unchanged', () => {
    expect(shellQuote('random,/abs/bots/mine.mjs')).toBe('random,/abs/bots/mine.mjs');
    const words = ['my bots/it\'s.mjs', '{"extends":"p0","minTai":1}', 'seed with $HOME and `ls`', 'a;b|c&d', ''];
    const r = spawnSync('sh', ['-c', `printf '%s\\n' ${words.map(shellQuote).join(' ')}`], { encoding: 'utf8' });
    expect(r.stdout.split('\n').slice(0, -1)).toEqual(words);
  });
});
