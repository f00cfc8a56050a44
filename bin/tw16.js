#!/usr/bin/env node
import { main } from '../dist/src/cli/main.js';
// `tw16 … | head` closes the pipe early: stop quietly instead of crashing.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
process.exitCode = await main(process.argv.slice(2));
