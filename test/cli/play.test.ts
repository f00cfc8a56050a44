/**
 * `tw16 play` at a real terminal: driven in tmux (send-keys, capture-pane), a person plays a
 * whole hand by choosing actions, sees the result screen, and the `tw16 replay` command it
 * prints plays the same hand again; bad input asks again; Ctrl-C ends cleanly (exit 130).
 * Bad flags are one line and exit 2. The tmux tests skip, saying so, only where tmux is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/tw16.js');
const HAS_TMUX = spawnSync('tmux', ['-V']).status === 0;
if (!HAS_TMUX) console.warn('test/cli/play: skipping the terminal tests: tmux is not installed (apt-get install tmux)');
/** A tmux server of this test's own, so no session of the user's is touched. */
const SOCKET = `tw16-play-test-${process.pid}`;

afterEach(() => {
  process.exitCode = 0;
});
afterAll(() => {
  if (HAS_TMUX) spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
});

function tmux(...args: string[]): string {
  const r = spawnSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tmux ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Start `tw16 ARGS` in a new 200×60 tmux window in `cwd`; the shell prints its exit code after it. */
function start(session: string, cwd: string, args: string[]): void {
  const cmd = `cd '${cwd}' && node '${BIN}' ${args.join(' ')}; echo tw16-exit=$?; sleep 600`;
  tmux('new-session', '-d', '-s', session, '-x', '200', '-y', '60', cmd);
}

/** The pane's text (wrapped lines joined), scrollback included. */
const screen = (session: string) => tmux('capture-pane', '-p', '-J', '-S', '-', '-t', session);

/** Wait until the pane shows something `ready` accepts; returns the screen. */
async function until(session: string, ready: (text: string) => boolean, what: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const text = screen(session);
    if (ready(text)) return text;
    if (Date.now() > deadline) throw new Error(`tmux: timed out waiting for ${what}; the screen:\n${text}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

/** The prompt of a decision, nothing typed after it yet. */
const PROMPT = /choose 1-\d+[^:]*:$/;
const send = (session: string, keys: string) => tmux('send-keys', '-t', session, keys, 'Enter');
const lines = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').length : 0);

describe('tw16 play', () => {
  it.skipIf(!HAS_TMUX)(
    HAS_TMUX ? 'plays a whole hand in a terminal; the replay command it prints plays the same hand' : 'plays a whole hand in a terminal — SKIPPED: tmux is not installed (apt-get install tmux)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tw16-play-'));
      const file = join(dir, 'tw16-play-tmux1.jsonl');
      start('hand', dir, ['play', '--seed', 'tmux1', '--seat', '2', '--bots', 'greedy,value,defensive']);
      let answered = 0;
      let claims = 0;
      let text = '';
      for (;;) {
        // A fresh prompt (nothing typed after it) once the last answer is in the decisions file.
        text = await until('hand', (t) => t.includes('tw16-exit=') || (PROMPT.test(t.trimEnd().split('\n').at(-1)!) && lines(file) === answered + 1), 'a prompt or the end');
        if (text.includes('tw16-exit=')) break;
        const shown = text.trimEnd().split('\n');
        const n = Number(/choose 1-(\d+)/.exec(shown.at(-1)!)![1]);
        // Take every claim offered (the last choice: a chow, pung, kong or win), and in a turn the first (a win, else the lowest discard).
        const claim = /: claim it\?|: rob the kong\?/.test(shown.slice(-8).join('\n'));
        if (claim) claims++;
        if (answered === 0) {
          // Bad input first: the prompt asks again.
          send('hand', 'x');
          await until('hand', (t) => t.includes('not one of the choices: type a number from 1 to'), 'the complaint about "x"');
        }
        send('hand', String(claim ? n : 1));
        answered++;
      }
      expect(text).toContain('tw16-exit=0');
      expect(answered).toBeGreaterThan(5);
      expect(claims).toBeGreaterThan(0);
      // The result screen: every hand face-up, the outcome, the payments, the replay command.
      const end = text.slice(text.lastIndexOf('Hand over: '));
      expect(end.match(/^ {3}hand {4}\S/gm)).toHaveLength(4);
      const payments = end.split('\n').find((l) => l.startsWith('payments: '))!;
      expect(payments).toMatch(/^payments: seat 0 \(\w\) [+-]?\d+, seat 1 /);
      const command = end.split('\n').find((l) => l.startsWith('  tw16 replay '))!.trim();
      expect(command).toContain('--bots greedy,value,human,defensive');
      expect(command).toContain(`--decisions ${file}`); // absolute: the command runs from anywhere
      expect(lines(file)).toBe(answered + 2);

      const replay = spawnSync('sh', ['-c', command.replace(/^tw16 /, `node '${BIN}' `)], { cwd: dir, encoding: 'utf8' });
      expect(replay.stderr).toBe('');
      expect(replay.status).toBe(0);
      expect(replay.stdout.trim().split('\n').at(-1)).toBe(payments);
      // The replay makes every decision the person made, in order.
      const made = readFileSync(file, 'utf8').trim().split('\n').slice(1, -1).map((l) => (JSON.parse(l) as { action: string }).action);
      const said = replay.stdout.split('\n').filter((l) => /^(discard|declare|answer)\s+seat 2 /.test(l)).map((l) => l.replace(/^\w+\s+seat 2 \(\w\): /, '').replace(/ \((claim|rob) window\)$/, ''));
      expect(said).toEqual(made.filter((a) => a !== 'pass'));
    },
  );

  it.skipIf(!HAS_TMUX)(
    HAS_TMUX ? 'Ctrl-C at the prompt ends the game cleanly, keeping the decisions so far (exit 130)' : 'Ctrl-C ends cleanly — SKIPPED: tmux is not installed (apt-get install tmux)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tw16-play-'));
      start('stop', dir, ['play', '--seed', 'tmux2', '--hands', '2', '--decisions', 'mine.jsonl']);
      await until('stop', (t) => /choose 1-\d+/.test(t), 'the first prompt');
      tmux('send-keys', '-t', 'stop', 'C-c');
      const text = await until('stop', (t) => t.includes('tw16-exit='), 'the end');
      expect(text).toContain('tw16 play: interrupted; your decisions so far are in mine.jsonl');
      expect(text).toContain('tw16-exit=130');
      expect(readFileSync(join(dir, 'mine.jsonl'), 'utf8')).toMatch(/^\{"format":"tw16-decisions-1","seed":"tmux2"/);
    },
  );

  it('--check: both referees watch the hands a person plays (answers piped in); each hand plays to its end and replays the same with --check', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-play-check-'));
    const r = spawnSync(process.execPath, [BIN, 'play', '--seed', 'pipe-check', '--seat', '1', '--hands', '2', '--bots', 'greedy,value,random', '--decisions', 'd.jsonl', '--check'], {
      cwd: dir,
      encoding: 'utf8',
      input: '1\n'.repeat(2000),
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const commands = r.stdout.split('\n').filter((l) => l.startsWith('  tw16 replay ')).map((l) => l.trim());
    const payments = r.stdout.split('\n').filter((l) => l.startsWith('payments: '));
    expect(commands).toHaveLength(2);
    expect(payments).toHaveLength(2);
    commands.forEach((command, i) => {
      expect(command).toContain(`--hand ${i} `);
      const replay = spawnSync('sh', ['-c', `${command.replace(/^tw16 /, `node '${BIN}' `)} --check`], { cwd: dir, encoding: 'utf8' });
      expect(replay.stderr).toBe('');
      expect(replay.status).toBe(0);
      expect(replay.stdout.trim().split('\n').at(-1)).toBe(payments[i]);
    });
  });

  it('bad flags are one line naming the flag, exit 2', async () => {
    for (const [args, text] of [
      [['--seat', '4'], '--seat must be a seat 0–3, got 4'],
      [['--bots', 'greedy,random'], '--bots needs one name or three'],
      [['--bots', 'human'], '--bots: "human" is your seat\'s name'],
      [['--hands', '2', '--match'], '--hands and --match exclude each other'],
      [['--hands', '0'], '--hands must be a whole number from 1, got 0'],
      [['--rules', 'nope'], 'unknown rule profile "nope"'],
      [['--bots', 'nobody'], 'unknown bot "nobody"'],
    ] as const) {
      const r = await run(['play', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toContain(text);
    }
  });
});
