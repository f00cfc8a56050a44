#!/usr/bin/env node
import { statSync } from 'node:fs';

/**
 * The CLI's bundle (dist/cli/, scripts/bundle.ts: Node loads it in a fraction of the time the
 * ~300 modules take) when it is at least as new as the tsc build of the CLI, else those modules
 * (no bundle, or `tsc` ran after it: never stale code).
 */
function entry() {
  const at = (rel) => new URL(rel, import.meta.url);
  try {
    if (statSync(at('../dist/cli/main.js')).mtimeMs >= statSync(at('../dist/src/cli/main.js')).mtimeMs) return '../dist/cli/main.js';
  } catch {
    // no bundle: the modules
  }
  return '../dist/src/cli/main.js';
}
const { errorMessage, exitCodeOf, invokedAs, main } = await import(entry());
// `tw16 … | head` closes the pipe early: stop quietly instead of crashing.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
// Anything that escapes main (an error in an event handler) is still one line, not a stack.
process.on('uncaughtException', (err) => {
  process.stderr.write(errorMessage(err, process.argv.includes('--debug')));
  process.exit(exitCodeOf(err));
});
// The commands tw16 prints start the way this one was started (tw16, npx tw16, node …/bin/tw16.js).
process.exitCode = await main(process.argv.slice(2), { invokedAs: invokedAs(process.argv[1], process.env, process.cwd()) });
