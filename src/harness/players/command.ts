/**
 * Bot programs named on a command line: `cmd:python3 bots/examples/python/random_bot.py`, or
 * `NAME=cmd:…` to choose the bot's name. The words after `cmd:` split like a POSIX shell's
 * (spaces separate them; '…', "…" and \ quote), but nothing else of a shell applies: no
 * variables, globs, pipes or `&&` (write a script for that).
 *
 * Relative words are resolved against a base directory — the current one on a command line,
 * the experiment file's inside an experiment: a word that is not an option (`-…`) and names a
 * file or directory that exists under the base is made absolute. The program then runs in tw16's
 * current directory, and its replay command runs from anywhere.
 */
import { existsSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { shellQuote } from '../../index.js';

/** The prefix of a command in a bot list. */
export const CMD = 'cmd:';

/** Is `spec` a command (`cmd:…` or `NAME=cmd:…`)? */
export function isCommandSpec(spec: string): boolean {
  return /^(?:[A-Za-z0-9._-]+=)?cmd:/.test(spec);
}

/** Split a command line into words like a POSIX shell (quotes and backslashes only). Throws RangeError on an open quote. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new RangeError(`unclosed ' in ${JSON.stringify(text)}`);
      cur += text.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length && '"\\$`'.includes(text[j + 1]!)) j++;
        cur += text[j];
      }
      if (j >= text.length) throw new RangeError(`unclosed " in ${JSON.stringify(text)}`);
      i = j;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      cur += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

/** Split a comma-separated bot list, keeping commas inside quotes (a command's words). */
export function splitBotList(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"' && i + 1 < text.length) cur += text[i++];
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\' && i + 1 < text.length) cur += text[i++];
    else if (c === ',') {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  out.push(cur.trim());
  return out;
}

/** A bot's default name from its command: the last word naming a file (or the program), without directory and extension. */
export function commandName(words: readonly string[]): string {
  const file = [...words].reverse().find((w) => !w.startsWith('-') && (/[/\\]/.test(w) || /\.[A-Za-z0-9]+$/.test(w))) ?? words[0] ?? 'bot';
  const name = basename(file).replace(/\.[A-Za-z0-9]+$/, '').replace(/[^A-Za-z0-9._-]/g, '_');
  return name || 'bot';
}

/** `NAME=cmd:WORDS` → its name (given or derived) and words. Throws RangeError naming what is wrong. */
export function parseCommandSpec(spec: string): { name: string; command: string[] } {
  const m = /^(?:([A-Za-z0-9._-]+)=)?cmd:(.*)$/s.exec(spec);
  if (!m) throw new RangeError(`not a command: ${JSON.stringify(spec)} (expected cmd:PROGRAM ARGS…)`);
  const command = shellWords(m[2]!);
  if (command.length === 0) throw new RangeError(`${JSON.stringify(spec)}: no program after "cmd:"`);
  return { name: m[1] ?? commandName(command), command };
}

/** The words of a command with its relative file words made absolute against `base` (see the file comment). */
export function resolveCommand(command: readonly string[], base: string): string[] {
  return command.map((w) => (w !== '' && !w.startsWith('-') && !isAbsolute(w) && existsSync(resolve(base, w)) ? resolve(base, w) : w));
}

/** A command as a bot-list entry (`[NAME=]cmd:WORDS`, words quoted for the cmd: splitter), the name only when not the derived one. */
export function commandSpec(name: string, command: readonly string[]): string {
  // A comma would end the entry in a bot list: quote it too.
  const quote = (w: string) => (w.includes(',') ? `'${w.replace(/'/g, `'\\''`)}'` : shellQuote(w));
  const text = `${CMD}${command.map(quote).join(' ')}`;
  return name === commandName(command) ? text : `${name}=${text}`;
}
