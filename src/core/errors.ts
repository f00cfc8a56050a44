/**
 * The errors a user can be told about in one line, by the exit code they mean
 * (docs/faults.md): bad input → 2, an I/O failure → 3. Every module below the CLI
 * throws these (or subclasses keeping their own names); the CLI maps them to exit codes
 * (`exitCodeOf` in src/cli/main.ts, the one place that decides a process's exit code from an error).
 */

/** Exit codes of every command (docs/faults.md): the only definition. */
export const EXIT = {
  OK: 0,
  /** `run`/`replay`: a bot broke the interface or its time limit; `diff`: the results differ. */
  BOT_ERROR_OR_DIFFERENT: 1,
  /** Bad input: flags, files, notation, corrupt or foreign input files, a refused resume. */
  BAD_INPUT: 2,
  /** An I/O failure: disk full, permission, read-only file system. */
  IO_FAILURE: 3,
  /** A bug in tw16 (the message says so). */
  INTERNAL: 70,
  INTERRUPTED: 130,
} as const;


/** Bad input: a flag, a file, notation, a profile, a case, a bot, a corrupt or foreign input file. Exit code 2. */
export class InputError extends Error {
  readonly exitCode: number = EXIT.BAD_INPUT;
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/** Bad command-line usage (flags and their combinations). */
export class UsageError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** What the OS says went wrong, e.g. `ENOSPC: no space left on device`. */
function osError(cause: unknown): string {
  const e = cause as NodeJS.ErrnoException | undefined;
  const text = e instanceof Error ? e.message.split('\n')[0]! : String(cause);
  // Node's messages repeat the syscall and path after the reason: keep the code and the reason.
  const reason = /^[A-Z0-9]+: ([^,]+)/.exec(text)?.[1];
  return e?.code ? `${e.code}${reason ? ` (${reason})` : ''}` : text;
}

/** Reading or writing `path` failed in the OS (disk full, permission, read-only file system…). Exit code 3. */
export class IoError extends Error {
  readonly exitCode: number = EXIT.IO_FAILURE;
  constructor(
    readonly path: string,
    readonly what: string,
    cause: unknown,
  ) {
    super(`cannot ${what} ${path}: ${osError(cause)}`);
    this.name = 'IoError';
    this.cause = cause;
  }
}

/** An error from the OS (`code` like `ENOSPC`, and the syscall that failed). */
export function isSystemError(err: unknown): err is NodeJS.ErrnoException & { code: string } {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' && /^E[A-Z0-9]+$/.test((err as NodeJS.ErrnoException).code!) && typeof (err as NodeJS.ErrnoException).syscall === 'string';
}

/**
 * Everything `--debug` shows of an error: its stack, then the stack of each error it wraps
 * (`cause`), e.g. a BotError's then the bot's own exception with the bot's file and line.
 */
export function fullStack(err: unknown): string {
  const out: string[] = [];
  const seen = new Set<unknown>();
  for (let e: unknown = err; e !== undefined && e !== null && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const text = e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e);
    out.push(out.length === 0 ? text : `Caused by: ${text}`);
  }
  return out.join('\n');
}
