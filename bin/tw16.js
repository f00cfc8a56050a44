#!/usr/bin/env node
import { errorMessage, exitCodeOf, main } from '../dist/src/cli/main.js';
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
process.exitCode = await main(process.argv.slice(2));
