/**
 * Every tw16 command: its name and arguments, its help line, and its module (one a command),
 * loaded only when the command line names it. `tw16 --version` and `tw16 --help` load none; a
 * command loads its own (yargs reads its options from it). Add a command by adding one entry here.
 */
import { LEAGUE_MAX } from '../harness/experiment/design.js';
import type { CommandBuilder } from 'yargs';

export interface Command {
  /** The name and positional arguments, as yargs reads them (`run <experiment>`). */
  readonly command: string;
  readonly describe: string;
  /** The command's module's CommandBody (command.ts), its arguments' type erased. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly load: () => Promise<{ readonly builder: CommandBuilder<any, any>; readonly handler: (args: any) => void | Promise<void> }>;
}

export const commands: readonly Command[] = [
  {
    command: 'run <experiment>',
    describe: 'Play an experiment into a result directory (hands.arrow, wins.arrow, summary.json, reports, manifest.json); print the summary',
    load: async () => (await import('./run.js')).runCommand,
  },
  {
    command: 'compare <a> <b>',
    describe: 'Is bot A better than bot B? Duplicate seating, luck-adjusted, stopping when decided; prints the experiment it ran and a one-sentence verdict',
    load: async () => (await import('./compare.js')).compareCommand,
  },
  {
    command: 'rank <bots..>',
    describe: `Rank 2 to ${LEAGUE_MAX} bots on one scale (5 or more: a league, one table of four a deal); prints the experiment it ran and the ranking in a sentence`,
    load: async () => (await import('./compare.js')).rankCommand,
  },
  {
    command: 'merge <out> <shards..>',
    describe: 'Merge the shards of a run (tw16 run --shard) into its result: the same bytes as the run on one machine',
    load: async () => (await import('./merge.js')).mergeCommand,
  },
  {
    command: 'rescore <results>',
    describe: 'Re-score every stored win of a run under another profile, without replaying',
    load: async () => (await import('./rescore.js')).rescoreCommand,
  },
  {
    command: 'diff <a> <b>',
    describe: 'Compare two result directories: patterns, bot metrics, hand-by-hand changes (exit 1 if different)',
    load: async () => (await import('./diff.js')).diffCommand,
  },
  {
    command: 'score [hand]',
    describe: 'Score a hand (or --cases FILE) under a rule profile: patterns, tai, payments',
    load: async () => (await import('./score.js')).scoreCommand,
  },
  {
    command: 'replay',
    describe: 'Play one hand again and print every step in MPSZ',
    load: async () => (await import('./replay.js')).replayCommand,
  },
  {
    command: 'report <results>',
    describe: 'Write report.md and report.html (tables and SVG charts) for a finished run',
    load: async () => (await import('./report.js')).reportCommand,
  },
  {
    command: 'play',
    describe: 'Play one seat in the terminal against bots',
    load: async () => (await import('./play.js')).playCommand,
  },
  {
    command: 'list <what>',
    describe: 'List what can be named: experiments (tw16 run NAME), rule profiles (--rules), built-in bots (--bots)',
    load: async () => (await import('./list.js')).listCommand,
  },
  {
    command: 'env',
    describe: 'The engine side of the Python learning environment (python/tw16env starts it): requests on stdin, binary frames on stdout; exits when stdin ends',
    load: async () => (await import('./env.js')).envCommand,
  },
];

/** A command's name: the first word of `command`. */
export function commandName(c: Command): string {
  return c.command.split(' ')[0]!;
}
