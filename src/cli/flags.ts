/**
 * Flags several commands share, parsed the same way everywhere.
 *
 * `--rules`: a profile name (`p0`, `casual`, `table`, `full`, `flowers`), a house-rule `.json`
 * file (relative to the current directory) or inline JSON (`'{"extends": "p0", "minTai": 1}'`).
 * `tw16 run` also takes a list, each entry an arm: names and files separated by commas
 * (`p0,table,house.json`) or a JSON array (`'["p0", {"extends": "p0", "minTai": 1}]'`).
 */
import { resolve } from 'node:path';
import type { Options } from 'yargs';
import { UsageError } from '../core/errors.js';
import { getProfile, type Profile } from '../rules/index.js';

/** The profile of a `--rules` flag (UsageError naming the flag on a bad one). */
export function rulesFlag(spec: string): Profile {
  try {
    return getProfile(spec);
  } catch (err) {
    throw new UsageError(`--rules: ${(err as Error).message}`);
  }
}

/**
 * A `--rules` list (tw16 run): the rule arms as an experiment's `rules` holds them, files made
 * absolute (an experiment's own paths are relative to it, a flag's to the current directory).
 * Every entry is checked here, so a bad one is an error naming the flag.
 */
export function rulesListFlag(text: string): (string | Record<string, unknown>)[] {
  const t = text.trim();
  let list: unknown[];
  if (t.startsWith('[') || t.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(t);
    } catch (err) {
      throw new UsageError(`--rules: not valid JSON (${(err as Error).message})`);
    }
    list = Array.isArray(json) ? json : [json];
  } else list = t.split(',').map((s) => s.trim());
  if (list.length === 0) throw new UsageError('--rules: expected a profile, or a list of them');
  return list.map((r, i) => {
    const at = list.length > 1 ? `--rules entry ${i + 1}` : '--rules';
    if (typeof r === 'string' && r !== '') {
      const spec = r.endsWith('.json') ? resolve(r) : r;
      check(spec, at);
      return spec;
    }
    if (typeof r === 'object' && r !== null && !Array.isArray(r)) {
      const o = r as Record<string, unknown>;
      const spec = typeof o.extends === 'string' && o.extends.endsWith('.json') ? { ...o, extends: resolve(o.extends) } : o;
      check(spec, at);
      return spec;
    }
    throw new UsageError(`${at}: expected a profile name, a .json file or an object like {"extends": "p0", …}, got ${JSON.stringify(r)}`);
  });
}

function check(spec: string | object, at: string): void {
  try {
    getProfile(spec);
  } catch (err) {
    throw new UsageError(`${at}: ${(err as Error).message}`);
  }
}

/** The default of `--decision-timeout` (seconds), as tw16 run's. */
export const DEFAULT_DECISION_TIMEOUT_S = 5;

/** `--decision-timeout` for replay and play: a bot module plays in a thread of its own, stopped when a decision overruns the limit. */
export const timeoutOption: Options = {
  type: 'number',
  default: DEFAULT_DECISION_TIMEOUT_S,
  describe: `seconds a bot may take over one decision, as in tw16 run (0: no limit; a bot module then runs in this thread, for a debugger)`,
};

/** The limit of a `--decision-timeout` flag in ms (UsageError unless a number of seconds ≥ 0). */
export function timeoutMs(seconds: number): number {
  if (!(typeof seconds === 'number' && seconds >= 0 && Number.isFinite(seconds))) throw new UsageError(`--decision-timeout: expected seconds ≥ 0, got ${seconds}`);
  return seconds * 1000;
}
