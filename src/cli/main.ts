/**
 * The tw16 command line: a thin yargs shell over one module per command.
 * `main(argv)` never calls process.exit, so tests can drive it in-process; it
 * returns the exit code (0 ok, 1 a difference or failure to report, 2 bad input).
 */
import yargs, { type Argv } from 'yargs';
import { VERSION } from '../version.js';
import { UsageError } from './errors.js';
import { commands } from './commands.js';

export async function main(argv: string[]): Promise<number> {
  let code = 0;
  let cli: Argv = yargs(argv)
    .scriptName('tw16')
    .version(VERSION)
    .strict()
    .demandCommand(1, 'name a command; see tw16 --help')
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((msg, err) => {
      throw err ?? new UsageError(msg);
    });
  for (const c of commands) cli = cli.command(c);
  try {
    const result: unknown = await cli.parseAsync();
    if (typeof (result as { exitCode?: unknown })?.exitCode === 'number') code = (result as { exitCode: number }).exitCode;
  } catch (err) {
    process.stderr.write(`tw16: ${err instanceof Error ? err.message : String(err)}\n`);
    code = err instanceof UsageError || (err as { exitCode?: number })?.exitCode === 2 ? 2 : 1;
  }
  return process.exitCode !== undefined && process.exitCode !== 0 && code === 0 ? Number(process.exitCode) : code;
}
