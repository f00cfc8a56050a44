/**
 * `tw16 merge OUT SHARD_DIR… [--force] [--quiet]`: the shards of a run (tw16 run --shard) into the
 * run's complete result in OUT, byte-identical to the run on one machine (harness/merge.ts).
 * A shard argument may be a glob (`'results/x/shard-*'`), expanded here when the shell did not.
 *
 * Exit codes: 0 merged; 2 a missing, doubled, overlapping, incomplete, corrupt or foreign shard,
 * or OUT holding a result (without --force); 3 an I/O failure; 130 interrupted (nothing written).
 */
import { existsSync, readdirSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { EXIT, UsageError } from '../core/errors.js';
import { formatSummary } from '../harness/analysis/format.js';
import { mergeShards } from '../harness/run/merge.js';
import type { CommandBody } from './command.js';

interface MergeArgs {
  out: string;
  shards: string[];
  force?: boolean;
  quiet?: boolean;
}

const GLOB = /[*?[]/;

/** A glob segment (`*`, `?`, `[…]`) as a regular expression over one name. */
function segmentRegExp(segment: string): RegExp {
  let re = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close < 0) re += '\\[';
      else {
        const body = segment.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = close;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** The paths a glob matches (sorted), segment by segment; names starting with a dot only when the pattern's segment does. */
export function expandGlob(pattern: string): string[] {
  const parts = pattern.split(/[\\/]+/);
  let paths = [isAbsolute(pattern) ? sep : ''];
  if (isAbsolute(pattern)) parts.shift();
  for (const part of parts) {
    if (part === '') continue;
    const next: string[] = [];
    for (const p of paths) {
      if (!GLOB.test(part)) {
        const q = p === '' ? part : join(p, part);
        if (existsSync(q)) next.push(q);
        continue;
      }
      const re = segmentRegExp(part);
      let names: string[];
      try {
        names = readdirSync(p === '' ? '.' : p);
      } catch {
        continue;
      }
      for (const n of names.sort()) if (re.test(n) && (!n.startsWith('.') || part.startsWith('.'))) next.push(p === '' ? n : join(p, n));
    }
    paths = next;
  }
  return paths;
}

/** The shard directories: each argument as given, or a glob's matches when it is a glob that names nothing as written. */
export function shardArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const a of args) {
    if (existsSync(a) || !GLOB.test(a)) {
      out.push(a);
      continue;
    }
    const matches = expandGlob(a);
    if (matches.length === 0) throw new UsageError(`${a}: matches no shard directory`);
    out.push(...matches);
  }
  return out;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export const mergeCommand: CommandBody<MergeArgs> = {
  builder: (y) =>
    y
      .positional('out', { type: 'string', demandOption: true, describe: 'the result directory to write (e.g. the shards\' parent, results/<name>)' })
      .positional('shards', { type: 'string', array: true, demandOption: true, describe: "the shard directories, in any order, or a glob ('results/<name>/shard-*')" })
      .option('force', { type: 'boolean', default: false, describe: 'replace a complete result in OUT (once the merge completes; until then it stays intact)' })
      .option('quiet', { type: 'boolean', default: false, describe: 'print no summary table' }),
  handler: async (a) => {
    const dirs = shardArgs(a.shards);
    const controller = new AbortController();
    const onSignal = (sig: string): void => {
      if (controller.signal.aborted) return;
      process.stderr.write(`\ntw16: ${sig}: stopping the merge\n`);
      controller.abort();
    };
    for (const s of SIGNALS) process.on(s, onSignal);
    try {
      const r = await mergeShards({ outDir: a.out, shardDirs: dirs, force: a.force ?? false, report: true, signal: controller.signal });
      if (r.status !== 'complete') {
        process.stderr.write(`tw16: merge interrupted; nothing written to ${a.out} (an earlier result there is intact); run it again\n`);
        process.exitCode = EXIT.INTERRUPTED;
        return;
      }
      const e = r.summary?.experiment as { name?: string; hypothesis?: string } | undefined;
      if (!a.quiet && r.summary) process.stdout.write(`${e?.name ?? ''}${e?.hypothesis ? `: ${e.hypothesis}` : ''}\n\n${formatSummary(r.summary)}\n`);
      const perMillion = r.hands > 0 ? (r.seconds / r.hands) * 1e6 : 0;
      process.stdout.write(
        `merged ${r.shards} shards: ${r.deals.toLocaleString('en-US')} deals, ${r.hands.toLocaleString('en-US')} hands, ${r.wins.toLocaleString('en-US')} wins in ${r.seconds.toFixed(1)} s (${perMillion.toFixed(1)} s per million hands)\n` +
          `wrote ${a.out}: ${(r.files ?? []).join(', ')}\nreport: ${join(a.out, 'report.html')} (tables: ${join(a.out, 'report.md')})\n`,
      );
    } finally {
      for (const s of SIGNALS) process.off(s, onSignal);
    }
  },
};
