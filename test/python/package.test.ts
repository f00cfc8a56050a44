/**
 * python/ is a pip package (`tw16`: tw16env and tw16bot) that installs from the checkout without the
 * network and without setuptools or wheel (its backend, python/tw16_build.py, is standard library
 * only): into a fresh venv made with --system-site-packages (Debian's python3-numpy), then imported
 * from a directory outside the checkout with nothing on PYTHONPATH — tw16env plays a hand (its
 * engine found through the checkout recorded at install), tw16bot is the helper's exact copy and
 * answers the protocol's hello. The editable install points at the checkout's own files. Skipped, saying
 * why, only where no python3 with numpy can make a venv with pip (apt-get install python3-venv
 * python3-numpy).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../support/programs.js';

/** A user's environment: no PYTHONPATH (nothing of the checkout importable but what pip installed), no $TW16. */
const { PYTHONPATH: _p, TW16: _t, ...USER_ENV } = process.env;

/** Make a venv with pip (seeing the system's numpy) with the first python3 that can; undefined and why not, if none can. */
function makeVenv(dir: string): { python?: string; why: string } {
  const why: string[] = [];
  for (const py of ['/usr/bin/python3', 'python3']) {
    if (spawnSync(py, ['-c', 'import numpy'], { encoding: 'utf8' }).status !== 0) {
      why.push(`${py}: no numpy`);
      continue;
    }
    const r = spawnSync(py, ['-m', 'venv', '--system-site-packages', dir], { encoding: 'utf8', timeout: 120_000 });
    if (r.status === 0 && spawnSync(join(dir, 'bin/python'), ['-m', 'pip', '--version']).status === 0) return { python: join(dir, 'bin/python'), why: '' };
    why.push(`${py}: no venv with pip (${(r.stderr || r.stdout).trim().split('\n').pop()})`);
    rmSync(dir, { recursive: true, force: true });
  }
  return { why: why.join('; ') };
}

const WORK = mkdtempSync(join(tmpdir(), 'tw16-pip-'));
const OUTSIDE = mkdtempSync(join(tmpdir(), 'tw16-outside-'));
const VENV = makeVenv(join(WORK, 'venv'));
if (!VENV.python) console.warn(`the pip install of python/ is not tested: ${VENV.why} (apt-get install python3-venv python3-numpy)`);
afterAll(() => {
  rmSync(WORK, { recursive: true, force: true });
  rmSync(OUTSIDE, { recursive: true, force: true });
});

function py(args: readonly string[], cwd = OUTSIDE): { status: number | null; out: string; err: string } {
  const r = spawnSync(VENV.python!, args, { cwd, env: USER_ENV, encoding: 'utf8', timeout: 300_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

const PLAY_A_HAND = `
import numpy as np, tw16env, tw16bot, json
env = tw16env.env(seats=["python", "greedy", "greedy", "greedy"])
env.reset(seed=1)
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
env.close()
print(json.dumps({"env": tw16env.__file__, "bot": tw16bot.__file__, "command": tw16env.tw16_command(), "outcome": info["outcome"]}))
`;

describe.skipIf(!VENV.python)('pip install ./python (offline, in a fresh venv)', () => {
  it('installs tw16env and tw16bot, importable from outside the checkout; tw16env plays a hand', () => {
    const inst = py(['-m', 'pip', 'install', '--no-build-isolation', '--no-index', join(ROOT, 'python')]);
    expect(inst.status, inst.out + inst.err).toBe(0);
    expect(inst.out).toMatch(/Successfully installed tw16-\d+\.\d+\.\d+/);
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    expect(inst.out).toContain(`tw16-${version}`);

    const r = py(['-c', PLAY_A_HAND]);
    expect(r.status, r.err).toBe(0);
    const got = JSON.parse(r.out.trim().split('\n').pop()!) as { env: string; bot: string; command: string[]; outcome: string };
    expect(got.env.startsWith(join(WORK, 'venv'))).toBe(true); // the installed copy, not the checkout's
    expect(got.bot.startsWith(join(WORK, 'venv'))).toBe(true);
    expect(got.command[1]).toBe(BIN); // the engine of the checkout it was installed from
    expect(['win', 'self_draw', 'draw', 'instant', 'false_win']).toContain(got.outcome);
    expect(readFileSync(got.bot, 'utf8')).toBe(readFileSync(join(ROOT, 'bots/examples/python/tw16bot.py'), 'utf8'));
  }, 300_000);

  it('the installed tw16bot speaks the protocol: a bot outside the checkout answers tw16\'s hello', () => {
    const bot = join(OUTSIDE, 'first_bot.py');
    writeFileSync(bot, 'import tw16bot\n\nclass First(tw16bot.Bot):\n    def decide(self, d):\n        return d["legal"][0]\n\ntw16bot.run(First())\n');
    const r = spawnSync(VENV.python!, [bot], { cwd: OUTSIDE, env: USER_ENV, encoding: 'utf8', input: '{"type": "hello", "protocol": "tw16-bot/1"}\n', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n')[0]!)).toMatchObject({ type: 'hello', protocol: 'tw16-bot/1' });
  }, 60_000);

  it('an editable install (-e) imports the checkout\'s own files', () => {
    const inst = py(['-m', 'pip', 'install', '--no-build-isolation', '--no-index', '-e', join(ROOT, 'python')]);
    expect(inst.status, inst.out + inst.err).toBe(0);
    const r = py(['-c', 'import tw16env, tw16bot; print(tw16env.__file__); print(tw16bot.__file__)']);
    expect(r.status, r.err).toBe(0);
    expect(r.out.trim().split('\n')).toEqual([join(ROOT, 'python/tw16env/__init__.py'), join(ROOT, 'bots/examples/python/tw16bot.py')]);
  }, 300_000);
});
