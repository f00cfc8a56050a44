/**
 * `tw16 list experiments|profiles|bots`: what can be named on a command line. Experiments are the
 * shipped ones (this package's experiments/, runnable by name: `tw16 run default`) and any in
 * ./experiments/ of the current directory; profiles and bots are the built-in ones.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ADVERSARIAL, BOT_ABOUT, BOT_NAMES } from '../../bots/index.js';
import { UsageError } from '../core/errors.js';
import { getProfile, PROFILE_NAMES } from '../rules/index.js';
import { PACKAGE_ROOT } from '../version.js';
import type { CommandBody } from './command.js';

/** The shipped experiments' directory. */
export function shippedExperiments(): string {
  return join(PACKAGE_ROOT, 'experiments');
}

/**
 * The file of an experiment argument: a path as given when it exists; else a bare name (`default`,
 * `default.json`) found in ./experiments/ or among the shipped experiments. Undefined when none.
 */
export function experimentFile(arg: string): string | undefined {
  if (existsSync(arg)) return arg;
  if (/[/\\]/.test(arg)) return undefined;
  const file = arg.endsWith('.json') ? arg : `${arg}.json`;
  for (const dir of [resolve('experiments'), shippedExperiments()]) {
    const p = join(dir, file);
    if (existsSync(p)) return relative(process.cwd(), p).startsWith('..') ? p : relative(process.cwd(), p);
  }
  return undefined;
}

/** The experiments of a directory: file, name and hypothesis (files that are not experiments skipped). */
function experimentsIn(dir: string): { file: string; name: string; about: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => {
      try {
        const e = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { name?: unknown; hypothesis?: unknown; hands?: unknown; matches?: unknown; bots?: unknown };
        if (typeof e.name !== 'string' || !Array.isArray(e.bots)) return [];
        const size = typeof e.hands === 'number' ? `${e.hands.toLocaleString('en-US')} deals` : typeof e.matches === 'number' ? `${e.matches.toLocaleString('en-US')} matches` : '';
        return [{ file: join(dir, f), name: f.replace(/\.json$/, ''), about: [size, typeof e.hypothesis === 'string' ? e.hypothesis : ''].filter(Boolean).join(': ') }];
      } catch {
        return [];
      }
    });
}

const WHAT = ['experiments', 'profiles', 'bots'] as const;

/** Rows as left-aligned columns, two spaces apart. */
function columns(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

export const listCommand: CommandBody<{ what: string }> = {
  builder: (y) => y.positional('what', { type: 'string', demandOption: true, describe: WHAT.join(' | ') }),
  handler: (a) => {
    const out: string[] = [];
    switch (a.what) {
      case 'experiments': {
        const local = resolve('experiments');
        const shipped = shippedExperiments();
        const dirs = local === shipped ? [shipped] : [local, shipped];
        for (const dir of dirs) {
          const list = experimentsIn(dir);
          if (list.length === 0) continue;
          out.push(`${dir === shipped ? 'shipped' : 'in ./experiments'} (${dir}): run one with tw16 run NAME`);
          out.push(columns(list.map((e) => [e.name, e.about])), '');
        }
        break;
      }
      case 'profiles':
        out.push(
          columns([
            ['profile', 'min tai', 'payout', 'source'],
            ...PROFILE_NAMES.map((n) => {
              const p = getProfile(n);
              return [n, String(p.minTai), p.payout, p.source];
            }),
          ]),
        );
        out.push('', `Also --rules FILE.json or inline JSON: '{"extends": "p0", "tai": {"all_pungs": 6}}' (docs/scoring.md).`);
        break;
      case 'bots':
        out.push(columns(BOT_NAMES.map((n) => [n, BOT_ABOUT[n] ?? ''])));
        out.push('', `Test bots (they walk the rules' edges; not strategies): ${Object.keys(ADVERSARIAL).join(', ')}.`);
        out.push(`Also a module path ([NAME=]./my-bot.js, .ts) or a program ('cmd:python3 bot.py'): docs/bots.md "Writing a bot".`);
        break;
      default:
        throw new UsageError(`list: expected one of ${WHAT.join(', ')}, got "${a.what}"`);
    }
    process.stdout.write(`${out.join('\n').trimEnd()}\n`);
  },
};
