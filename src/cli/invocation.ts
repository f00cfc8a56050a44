/**
 * The commands tw16 prints (replay, resume, merge, diff, score) are run as printed: with the
 * words that started this tw16. `tw16` when that is on the PATH (npm link, a global install, the
 * Docker image), `npx tw16` when npx started it (inside the checkout, after `npm install`), else
 * `node PATH/TO/bin/tw16.js` (`npm start`, a Slurm script's `$TW16`); a wrapper that starts tw16
 * some other way (`apptainer exec tw16.sif tw16`) says so in the environment variable TW16_COMMAND.
 * bin/tw16.js works it out once and `main` keeps it here; in-process callers (tests, the library)
 * keep `tw16`.
 */
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';
import { shellQuote } from '../core/shell.js';

let prefix = 'tw16';

/** How this process was started, as words to type: `tw16`, `npx tw16` or `node …/bin/tw16.js`. */
export function invokedAs(script: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string {
  if (env.TW16_COMMAND?.trim()) return env.TW16_COMMAND.trim();
  // npx (npm exec) runs tw16 from its cache (…/_npx/…/.bin/tw16), or names it as the script it runs;
  // a process an npx-started tool starts inherits npm_command=exec too, so that alone says nothing.
  if (script?.split(/[\\/]/).includes('_npx') || (env.npm_command === 'exec' && /^'?tw16'?(\s|$)/.test(env.npm_lifecycle_script ?? ''))) return 'npx tw16';
  if (!script) return 'tw16';
  const real = (p: string): string | undefined => {
    try {
      return realpathSync(p);
    } catch {
      return undefined;
    }
  };
  const self = real(script);
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'tw16');
    if (existsSync(candidate) && self !== undefined && real(candidate) === self) return 'tw16';
  }
  const rel = relative(cwd, script);
  const path = !rel.startsWith('..') && !isAbsolute(rel) ? rel : script;
  return `node ${shellQuote(path)}`;
}

/** Use `words` to start the commands printed from now on. */
export function setInvocation(words: string): void {
  prefix = words;
}

/** The words that start a printed command. */
export function invocation(): string {
  return prefix;
}

const COMMAND = /(^|[\s:`'"(])tw16 (?=(?:run|replay|merge|diff|rescore|score|report|play|list) )/g;

/** `text` with each printed tw16 command (`tw16 replay …`) started the way this tw16 was. Apply once, where the text is printed. */
export function asTyped(text: string): string {
  return prefix === 'tw16' ? text : text.replace(COMMAND, (_, before: string) => `${before}${prefix} `);
}
