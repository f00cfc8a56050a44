/** Exit codes of every command (README "Faults and recovery"). */
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
