/**
 * `node --import ./trace-imports.mjs …`: appends the URL of every module the ES module loader loads
 * (the main thread's imports, and each package's entry a CommonJS file requires through it) to the
 * file $TW16_TRACE_IMPORTS, one a line: what a command loads (test/cli/startup.test.ts).
 */
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (process.env.TW16_TRACE_IMPORTS) appendFileSync(process.env.TW16_TRACE_IMPORTS, url + '\\n');
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
