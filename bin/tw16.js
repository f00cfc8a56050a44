#!/usr/bin/env node
import { errorMessage, exitCodeOf, invokedAs, main } from '../dist/src/cli/main.js';
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
