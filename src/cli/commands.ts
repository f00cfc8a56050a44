/** Every tw16 command, one module each. Add a command by adding one line here. */
import type { CommandModule } from 'yargs';
import { compareCommand, rankCommand } from './compare.js';
import { diffCommand } from './diff.js';
import { mergeCommand } from './merge.js';
import { rescoreCommand } from './rescore.js';
import { runCommand } from './run.js';
import { scoreCommand } from './score.js';
import { replayCommand } from './replay.js';
import { reportCommand } from './report.js';
import { playCommand } from './play.js';
import { listCommand } from './list.js';
import { envCommand } from './env.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commands: CommandModule<any, any>[] = [
  runCommand,
  compareCommand,
  rankCommand,
  mergeCommand,
  rescoreCommand,
  diffCommand,
  scoreCommand,
  replayCommand,
  reportCommand,
  playCommand,
  listCommand,
  envCommand,
];
