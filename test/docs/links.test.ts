/**
 * Every link between the documentation's pages holds (issue 32 moved the README's reference into
 * docs/): in README.md, docs/*.md and the other READMEs, a relative link names a file or directory
 * that exists, and a `#anchor` into a markdown page names one of its headings (as GitHub makes
 * anchors from them) or one of its `<a id="…">` anchors. Links inside code blocks and to other sites
 * are not checked. The last block feeds the checker broken links and sees each reported. And the
 * pages stay short enough to read: README.md at most 300 lines, a docs/ page at most 600.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/programs.js';

/** The pages checked: the front door, every docs/ page, and the READMEs beside the code. */
export function docPages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  return ['README.md', ...docs.sort(), 'results/README.md', 'python/README.md', 'examples/learn/README.md', 'bots/examples/python/README.md'];
}

/** The text of a page outside its fenced code blocks, line by line (code lines blanked, so numbers hold). */
function prose(md: string): string[] {
  let fence = false;
  return md.split('\n').map((l) => {
    if (l.startsWith('```')) {
      fence = !fence;
      return '';
    }
    return fence ? '' : l;
  });
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped (letters of any script, digits, `_` and `-` kept), spaces to `-`. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replaceAll(' ', '-');
}

/** The anchors a markdown page has: its headings' (a repeat gets `-1`, `-2`, …) and its explicit `<a id>`s. */
export function anchorsOf(md: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const l of prose(md)) {
    const h = /^#{1,6} (.*)$/.exec(l);
    if (h) {
      const a = headingAnchor(h[1]!);
      const n = seen.get(a) ?? 0;
      seen.set(a, n + 1);
      out.add(n ? `${a}-${n}` : a);
    }
    for (const m of l.matchAll(/<a id="([^"]+)"/g)) out.add(m[1]!);
  }
  return out;
}

/** The broken links of `page` (its path from the root, its text), one line each; `read` gives another page's text, or undefined if there is none. */
export function brokenLinks(page: string, md: string, exists: (path: string) => boolean, read: (path: string) => string | undefined): string[] {
  const problems: string[] = [];
  const lines = prose(md);
  for (let i = 0; i < lines.length; i++) {
    for (const m of lines[i]!.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
      const [path, anchor] = target.split('#', 2) as [string, string | undefined];
      const file = path === '' ? page : normalize(join(dirname(page), path)).replaceAll('\\', '/');
      const where = `${page}:${i + 1}: (${target})`;
      if (!exists(file)) {
        problems.push(`${where}: ${file} does not exist`);
        continue;
      }
      if (anchor === undefined || !file.endsWith('.md')) continue;
      const text = read(file);
      if (text === undefined || !anchorsOf(text).has(anchor)) problems.push(`${where}: ${file} has no anchor #${anchor}`);
    }
  }
  return problems;
}

const exists = (p: string): boolean => existsSync(join(ROOT, p));
const read = (p: string): string | undefined => (exists(p) ? readFileSync(join(ROOT, p), 'utf8') : undefined);

describe('links between the documentation pages', () => {
  it('every relative link names a file that exists, and every #anchor one the page has', () => {
    const pages = docPages();
    expect(pages.length).toBeGreaterThanOrEqual(14);
    let links = 0;
    const problems: string[] = [];
    for (const p of pages) {
      const md = read(p)!;
      links += [...md.matchAll(/\]\(/g)].length;
      problems.push(...brokenLinks(p, md, exists, read));
    }
    expect(problems).toEqual([]);
    expect(links).toBeGreaterThan(100);
  });

  it('the front door is at most 300 lines, and a docs/ page at most 600 (docs/rules.md, the rule reference, apart)', () => {
    const long = docPages()
      .filter((p) => p === 'README.md' || (p.startsWith('docs/') && p !== 'docs/rules.md'))
      .map((p) => [p, read(p)!.split('\n').length - 1] as const)
      .filter(([p, n]) => n > (p === 'README.md' ? 300 : 600));
    expect(long).toEqual([]);
  });

  it('makes anchors as GitHub does', () => {
    expect(headingAnchor('`tw16 run`')).toBe('tw16-run');
    expect(headingAnchor('Rule regression: rescore, diff, golden outcomes')).toBe('rule-regression-rescore-diff-golden-outcomes');
    expect(headingAnchor('Measured: 1 vs 4 array tasks')).toBe('measured-1-vs-4-array-tasks');
    expect([...anchorsOf('# A\n## A\n```\n# not a heading\n```\n<a id="x"></a>')]).toEqual(['a', 'a-1', 'x']);
  });

  it('reports a missing file, a missing anchor, and a link to a heading that sits in a code block', () => {
    const pages: Record<string, string> = {
      'docs/a.md': '# Page A\n\n```sh\n# fenced\n```\n[ok](#page-a) [ok](b.md#b) [ok](../README.md) [web](https://x.org/#y)\n[gone](c.md) [bad](b.md#nope)\n[fenced](#fenced)\n',
      'docs/b.md': '## B\n',
      'README.md': '# R\n',
    };
    const problems = brokenLinks('docs/a.md', pages['docs/a.md']!, (p) => p in pages, (p) => pages[p]);
    expect(problems).toEqual([
      'docs/a.md:7: (c.md): docs/c.md does not exist',
      'docs/a.md:7: (b.md#nope): docs/b.md has no anchor #nope',
      'docs/a.md:8: (#fenced): docs/a.md has no anchor #fenced',
    ]);
  });
});
