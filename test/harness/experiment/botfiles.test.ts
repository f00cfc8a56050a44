/** A bot's fingerprint covers its module and the local files it imports, and any edit to them shows. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { botChange, botFingerprints } from '../../../src/harness/experiment/botfiles.js';
import { validateExperiment } from '../../../src/harness/experiment/experiment.js';

describe('bot fingerprints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw16-botfiles-'));
  writeFileSync(join(dir, 'mine.mjs'), "import { pick } from './lib/pick.mjs';\nimport { ActionKind } from 'tw16';\nexport default () => ({ decide: (v, legal) => pick(legal) });\n");
  const lib = join(dir, 'lib');
  const e = validateExperiment({ name: 'b', seed: 1, hands: 1, bots: ['./mine.mjs', 'greedy'] }, 'exp.json', dir);

  it('hash the module, its local imports (transitively) and the built-in bots, not packages', () => {
    mkdirLib();
    const [mine, greedy] = botFingerprints(e);
    expect(Object.keys(mine!.files)).toEqual([join(dir, 'lib/a.mjs'), join(dir, 'lib/pick.mjs'), join(dir, 'mine.mjs')]);
    expect(greedy!.name).toBe('greedy');
    expect(Object.keys(greedy!.files).map((f) => f.replace(/^.*\/bots\//, ''))).toEqual(expect.arrayContaining([expect.stringMatching(/^greedy\.[jt]s$/), expect.stringMatching(/^lib\.[jt]s$/)]));
    expect(Object.keys(greedy!.files).every((f) => !/\/src\//.test(f))).toBe(true); // tw16's own code: the version covers it
  });

  it('name the file that changed or is no longer imported', () => {
    mkdirLib();
    const before = botFingerprints(e);
    expect(botChange(before, botFingerprints(e))).toBeUndefined();
    writeFileSync(join(lib, 'a.mjs'), 'export const rest = 2;\n');
    expect(botChange(before, botFingerprints(e))).toMatch(new RegExp(`bot "mine": ${join(lib, 'a.mjs')} changed since the run started`));
    mkdirLib();
    writeFileSync(join(lib, 'pick.mjs'), 'export const pick = (l) => l[0];\n');
    expect(botChange(before, botFingerprints(e))).toMatch(new RegExp(`bot "mine": ${join(lib, 'a.mjs')} is no longer part of it`));
  });

  it('an adversarial test bot is fingerprinted by the module it lives in (bots/adversarial), an unknown name is a BotLoadError', () => {
    const adv = validateExperiment({ name: 'b', seed: 1, hands: 1, bots: ['konger', { name: 'k2', path: 'never-wins' }] }, 'exp.json', dir);
    const [konger, k2] = botFingerprints(adv);
    expect(konger!.module).toMatch(/\/bots\/adversarial\.[jt]s$/);
    expect(k2!.module).toBe(konger!.module);
    expect(Object.keys(konger!.files)).toEqual(expect.arrayContaining([konger!.module, expect.stringMatching(/\/bots\/greedy\.[jt]s$/)]));
    const unknown = validateExperiment({ name: 'b', seed: 1, hands: 1, bots: ['nosuch', 'greedy'] }, 'exp.json', dir);
    expect(() => botFingerprints(unknown)).toThrow(/unknown bot "nosuch" \(known: .*adversarial test bots: .*konger/);
  });

  function mkdirLib(): void {
    mkdirSync(lib, { recursive: true });
    writeFileSync(join(lib, 'pick.mjs'), "import { rest } from './a.mjs';\nexport const pick = (l) => l[rest - 1];\n");
    writeFileSync(join(lib, 'a.mjs'), 'export const rest = 1;\n');
  }
});
