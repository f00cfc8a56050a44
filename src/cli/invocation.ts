/**
 * The commands tw16 prints (replay, resume, merge, diff, score) are run as printed, from any
 * directory: they start with `tw16` when the `tw16` on the PATH is this one (npm link, a global
 * install, the Docker image), else with `node /ABSOLUTE/PATH/TO/bin/tw16.js` — also when npx
 * started it, since outside the checkout `npx tw16` would ask the public registry for a package of
 * that name (and run whatever it found). A wrapper that starts tw16 some other way
 * (`apptainer exec tw16.sif tw16`) says so in the environment variable TW16_COMMAND.
 * bin/tw16.js works it out once and `main` keeps it here; in-process callers (tests, the library)
 * keep `tw16`.
 */
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { shellQuote } from '../core/shell.js';

let prefix = 'tw16';

/** How to start this tw16 from any directory, as words to type: `tw16` or `node /abs/…/bin/tw16.js`. */
export function invokedAs(script: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string {
  if (env.TW16_COMMAND?.trim()) return env.TW16_COMMAND.trim();
  if (!script) return 'tw16';
  const real = (p: string): string | undefined => {
    try {
      return realpathSync(p);
    } catch {
      return undefined;
    }
  };
  // npx runs the bin through a link (node_modules/.bin/tw16, or its cache's): the file it points to is this tw16.
  const self = real(resolve(cwd, script));
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    // npm exec/run put node_modules/.bin (theirs, or npx's cache's) on the PATH for this process only.
    if (!dir || !isAbsolute(dir) || /[\\/]node_modules[\\/]\.bin[\\/]?$/.test(dir)) continue;
    const candidate = join(dir, 'tw16');
    if (existsSync(candidate) && self !== undefined && real(candidate) === self) return 'tw16';
  }
  return `node ${shellQuote(self ?? resolve(cwd, script))}`;
}

/** Use `words` to start the commands printed from now on. */
export function setInvocation(words: string): void {
  prefix = words;
}

/** The words that start a printed command. */
export function invocation(): string {
  return prefix;
}

const COMMAND = /(^|[\s:`'"(])tw16 (?=(?:run|compare|rank|replay|merge|diff|rescore|score|report|play|list) )/g;

/** `text` with each printed tw16 command (`tw16 replay …`) started the way this tw16 was. Apply once, where the text is printed. */
export function asTyped(text: string): string {
  return prefix === 'tw16' ? text : text.replace(COMMAND, (_, before: string) => `${before}${prefix} `);
}
