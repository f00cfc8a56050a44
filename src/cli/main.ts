/**
 * The tw16 command line: a thin yargs shell over one module per command.
 * `main(argv)` never calls process.exit, so tests can drive it in-process; it returns the exit
 * code (EXIT below). Errors reach the user as one line; `--debug` adds the stack.
 */
import type { Argv } from 'yargs';
import { EXIT, fullStack, InputError, IoError, isSystemError, UsageError } from '../core/errors.js';
import { BotError } from '../engine/types.js';
import { VERSION } from '../version.js';
import { commandName, commands, type Command } from './commands.js';
import { asTyped, invokedAs, setInvocation } from './invocation.js';

export { invokedAs };

export { EXIT };

const HELP_EXIT_CODES =
  'Exit codes: 0 success; 1 a bot error (run, replay) or results that differ (diff); 2 bad input ' +
  '(flags, files, corrupt or foreign input files, a refused resume); 3 an I/O failure (disk full, ' +
  'permission, read-only file system); 130 interrupted (progress saved; continue with --resume); ' +
  '70 a bug in tw16. --debug prints stack traces.';

/** The exit code an error stands for. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof InputError) return EXIT.BAD_INPUT;
  if (err instanceof IoError || isSystemError(err)) return EXIT.IO_FAILURE;
  if (err instanceof BotError) return EXIT.BOT_ERROR_OR_DIFFERENT;
  return EXIT.INTERNAL;
}

/** The one line (or, with `debug`, the stack) telling the user about `err`. */
export function errorMessage(err: unknown, debug: boolean): string {
  const e = isSystemError(err) ? new IoError(err.path ?? (err as { dest?: string }).dest ?? '(unknown path)', `${err.syscall}`, err) : err;
  const text = e instanceof Error ? e.message : String(e);
  const line = exitCodeOf(e) === EXIT.INTERNAL ? `internal error (a bug in tw16; --debug shows where): ${text}` : text;
  const stack = debug && err instanceof Error ? `\n${fullStack(err)}` : '';
  return asTyped(`tw16: ${line.split('\n')[0]}${stack}\n`);
}

/** Flags whose value may start with a dash (`--shard -1/3`), which yargs would read as flags of their own. */
const DASH_VALUE_FLAGS = ['--shard'];

/** `--shard -1/3` as `--shard=-1/3`, so the flag's own check sees the value (not "Unknown argument: 1"). */
function joinDashValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (DASH_VALUE_FLAGS.includes(argv[i]!) && next !== undefined && /^-[^-]/.test(next)) out.push(`${argv[i]}=${argv[++i]}`);
    else out.push(argv[i]!);
  }
  return out;
}

/** Does the command line ask for help (`--help`, `--help=…`, or the word `help`, which yargs takes for it)? */
function asksForHelp(argv: readonly string[]): boolean {
  return argv.some((w) => w === 'help' || w.startsWith('--help'));
}

/**
 * yargs lays out the help of every command it runs, once the handler has started, to have it at
 * hand for a later `showHelp` (yargs 18, command.js); tw16 never shows help from a handler (its
 * `fail` throws), so a line that does not ask for help skips that layout: 50-75 ms of a 1-deal run,
 * most of what yargs still cost it. Through yargs' internal methods, so only where they are as
 * expected; anything else leaves yargs as it is.
 */
function skipHelpLayout(cli: Argv): void {
  const internal = (cli as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: unknown } } }).getInternalMethods?.();
  const usage = internal?.getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = (): void => {};
}

/** The handler of a command whose module was not loaded: yargs runs only a command the line names, whose module is. */
function notLoaded(c: Command): () => never {
  return () => {
    throw new Error(`the module of tw16 ${commandName(c)} was not loaded`);
  };
}

/**
 * Run the tw16 command `argv`; the exit code. `invokedAs`: the words that started this tw16, to
 * start the commands it prints (invocation.ts; default `tw16`).
 */
export async function main(argv: string[], opts: { invokedAs?: string } = {}): Promise<number> {
  setInvocation(opts.invokedAs ?? 'tw16');
  const debug = argv.includes('--debug');
  let code: number = EXIT.OK;
  // `tw16 --version` answers before yargs loads, as yargs would (loading yargs was most of what it cost).
  if (argv.length === 1 && argv[0] === '--version') {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.OK;
  }
  const { default: yargs } = await import('yargs');
  let cli: Argv = yargs(joinDashValues(argv))
    .scriptName('tw16')
    .version(VERSION)
    .strict()
    .option('debug', { type: 'boolean', default: false, global: true, describe: 'print stack traces with errors' })
    .demandCommand(1, 'name a command; see tw16 --help')
    .recommendCommands()
    .epilogue(HELP_EXIT_CODES)
    // yargs lays out a command's help whenever it runs the command (to have it at hand); only a
    // line asking for help prints it, so only that one pays for wrapping it (that layout was the
    // most of what yargs cost a 1-deal run).
    .wrap(asksForHelp(argv) ? Math.min(110, process.stdout.columns || 100) : null)
    .fail((msg, err) => {
      throw err ?? new UsageError(msg);
    });
  if (!asksForHelp(argv)) skipHelpLayout(cli);
  try {
    // Only the modules of the commands the line names load (the command's own, or none for
    // --version and --help): the rest are only their names and help lines.
    const words = new Set(argv);
    for (const c of commands) {
      const body = words.has(commandName(c)) ? await c.load() : undefined;
      const build = body?.builder;
      // Every command's --help ends with the exit codes too.
      const builder = (y: Argv): Argv => (typeof build === 'function' ? (build(y) as Argv) : y.options(build ?? {})).epilogue(HELP_EXIT_CODES);
      cli = cli.command({ command: c.command, describe: c.describe, builder, handler: body?.handler ?? notLoaded(c) });
    }
    await cli.parseAsync();
  } catch (err) {
    process.stderr.write(errorMessage(err, debug));
    code = exitCodeOf(err);
  }
  return process.exitCode !== undefined && process.exitCode !== 0 && code === 0 ? Number(process.exitCode) : code;
}
