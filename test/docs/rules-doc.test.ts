/**
 * docs/rules.md, the rule reference, stays true to the code and to its citations:
 * (a) its field table gives every field of every built-in profile with the compiled value;
 * (b) its pattern table gives every pattern id the scorer knows, in the code's order, with
 *     its tai per profile (and the replacements table every `replaces` list);
 * (c) every docs/rules.md#<anchor> cited in src/, test/, bots/, bench/, scripts/, README.md
 *     and docs/ (and every `(#anchor)` link inside the document) names an anchor it has;
 * (d) src/, test/, bots/, bench/ and scripts/ cite the rules only as docs/rules.md;
 * plus: every "Profile:" line of a rule gives the compiled values, and every code location
 * (`fn` in `file`) names a file that exists and defines that function.
 * Each checker returns its problems as lines; the last block feeds them wrong input.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PATTERN_IDS, PATTERN_NAMES, PROFILE_NAMES, getProfile, type PatternId, type Profile } from '../../src/rules/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOC = 'docs/rules.md';
const SELF = 'test/docs/rules-doc.test.ts';
/** A byte-for-byte copy of ../shared/conformance/p0-seed-examples.json (its text is not ours to edit). */
const CONFORMANCE_COPY = 'test/fixtures/p0-seed-examples.json';
const SHARED_CONFORMANCE = join(ROOT, '../shared/conformance/p0-seed-examples.json');

/** Where citations are looked for, and where only `docs/rules.md` may name the rules. */
const CITING = ['src', 'test', 'bots', 'bench', 'scripts', 'README.md', 'docs'];
const CODE_DIRS = ['src', 'test', 'bots', 'bench', 'scripts'];
const TEXT = /\.(?:[mc]?[jt]s|md|json|py|sh|ya?ml|html|txt)$/;

interface TextFile {
  readonly path: string;
  readonly text: string;
}

function filesUnder(entries: readonly string[]): TextFile[] {
  const out: TextFile[] = [];
  for (const e of entries) {
    const abs = join(ROOT, e);
    if (!existsSync(abs)) continue;
    const paths = e.includes('.')
      ? [e]
      : readdirSync(abs, { withFileTypes: true, recursive: true })
          .filter((d) => d.isFile() && TEXT.test(d.name))
          .map((d) => relative(ROOT, join(d.parentPath, d.name)));
    for (const p of paths) if (!p.split(/[\\/]/).includes('node_modules')) out.push({ path: p.replaceAll('\\', '/'), text: readFileSync(join(ROOT, p), 'utf8') });
  }
  return out;
}

// ───────────────────────── reading the document ─────────────────────────

/** The explicit anchors `<a id="…"></a>` of a document, with how often each occurs. */
export function anchorsOf(md: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of md.matchAll(/<a id="([^"]*)"><\/a>/g)) out.set(m[1]!, (out.get(m[1]!) ?? 0) + 1);
  return out;
}

/** Anchors must be lowercase kebab-case and unique. */
export function checkAnchors(md: string): string[] {
  const problems: string[] = [];
  for (const [id, n] of anchorsOf(md)) {
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) problems.push(`anchor "${id}" is not lowercase kebab-case`);
    if (n > 1) problems.push(`anchor "${id}" occurs ${n} times`);
  }
  return problems;
}

interface Table {
  readonly header: string[];
  readonly rows: string[][];
}

/** Split a markdown table line into trimmed cells. */
function cells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

/** The first table after the anchor `id`, or null. */
export function tableAfter(md: string, id: string): Table | null {
  const at = md.indexOf(`<a id="${id}"></a>`);
  if (at < 0) return null;
  const lines = md.slice(at).split('\n');
  const start = lines.findIndex((l) => l.trimStart().startsWith('|'));
  if (start < 0) return null;
  const block: string[] = [];
  for (let i = start; i < lines.length && lines[i]!.trimStart().startsWith('|'); i++) block.push(lines[i]!);
  return { header: cells(block[0]!), rows: block.slice(2).map(cells) };
}

/** A cell's value: backticks and a markdown link's target dropped (`[\`x\`](#y)` → `x`). */
function plain(cell: string): string {
  return cell.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replaceAll('`', '').trim();
}

/** Which column holds each profile, by the header's names. */
function profileColumns(t: Table, profiles: readonly Profile[], where: string, problems: string[]): Map<string, number> {
  const cols = new Map<string, number>();
  for (const p of profiles) {
    const i = t.header.indexOf(p.name);
    if (i < 0) problems.push(`${where}: no column for profile ${p.name}`);
    else cols.set(p.name, i);
  }
  return cols;
}

// ───────────────────────── values as the document writes them ─────────────────────────

/** The value at a dotted path of a profile (`allSequences.minWaits`, `tai.self_draw`). */
function valueAt(p: Profile, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), p);
}

/** A value as the document writes it: `–` for 0 tai and for no list, lists joined by ", ". */
export function formatValue(path: string, v: unknown): string {
  if (v === undefined) return '–';
  if (Array.isArray(v)) return v.length > 0 ? v.join(', ') : '–';
  if (path.startsWith('tai.') && v === 0) return '–';
  if (v === null) return 'null';
  return String(v);
}

/** The rows the field table must have: each scalar field, each `allSequences.*` option, and `tai` and `replaces` (checked through their own tables). */
function fieldPaths(p: Profile): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(p)) {
    if (k === 'tai' || k === 'replaces') out.push(k);
    else if (v !== null && typeof v === 'object') for (const sub of Object.keys(v)) out.push(`${k}.${sub}`);
    else out.push(k);
  }
  return out;
}

// ───────────────────────── the checkers ─────────────────────────

/** (a) The field table (after `#profile-fields`) has one row per field with each profile's value and a rule that exists. */
export function checkFieldTable(md: string, profiles: readonly Profile[]): string[] {
  const problems: string[] = [];
  const t = tableAfter(md, 'profile-fields');
  if (!t) return ['no table after #profile-fields'];
  const cols = profileColumns(t, profiles, 'field table', problems);
  const ruleCol = t.header.indexOf('rule');
  if (ruleCol < 0) problems.push('field table: no "rule" column');
  const anchors = anchorsOf(md);
  const rows = new Map(t.rows.map((r) => [plain(r[0] ?? ''), r]));
  const wanted = new Set(profiles.flatMap(fieldPaths));
  for (const path of wanted) {
    const row = rows.get(path);
    if (!row) {
      problems.push(`field table: no row for \`${path}\``);
      continue;
    }
    if (ruleCol >= 0) {
      const links = [...(row[ruleCol] ?? '').matchAll(/\(#([^)]+)\)/g)].map((m) => m[1]!);
      if (links.length === 0) problems.push(`field table: \`${path}\` names no rule`);
      for (const a of links) if (!anchors.has(a)) problems.push(`field table: \`${path}\` links to #${a}, which is not an anchor`);
    }
    if (path === 'tai' || path === 'replaces') continue;
    for (const p of profiles) {
      const i = cols.get(p.name);
      if (i === undefined) continue;
      const want = formatValue(path, valueAt(p, path));
      const seen = plain(row[i] ?? '');
      if (seen !== want) problems.push(`field table: \`${path}\` in ${p.name} is "${seen}", the profile has "${want}"`);
    }
  }
  for (const path of rows.keys()) if (!wanted.has(path)) problems.push(`field table: \`${path}\` is not a field of the compiled profiles`);
  return problems;
}

/** (b) The pattern table (after `#patterns`) lists every pattern id in the code's order, its Chinese name, its tai per profile, and each has its `#pattern-…` anchor. */
export function checkPatternTable(md: string, profiles: readonly Profile[]): string[] {
  const problems: string[] = [];
  const t = tableAfter(md, 'patterns');
  if (!t) return ['no table after #patterns'];
  const cols = profileColumns(t, profiles, 'pattern table', problems);
  const ids = t.rows.map((r) => plain(r[0] ?? ''));
  if (ids.join(' ') !== PATTERN_IDS.join(' ')) problems.push(`pattern table: ids [${ids.join(' ')}] are not PATTERN_IDS in order [${PATTERN_IDS.join(' ')}]`);
  const anchors = anchorsOf(md);
  for (const id of PATTERN_IDS) {
    if (!anchors.has(patternAnchor(id))) problems.push(`no anchor #${patternAnchor(id)} for pattern ${id}`);
    const row = t.rows.find((r) => plain(r[0] ?? '') === id);
    if (!row) continue;
    if (plain(row[1] ?? '') !== PATTERN_NAMES[id]) problems.push(`pattern table: ${id} is named "${plain(row[1] ?? '')}", the code says "${PATTERN_NAMES[id]}"`);
    for (const p of profiles) {
      const i = cols.get(p.name);
      if (i === undefined) continue;
      const want = formatValue(`tai.${id}`, p.tai[id]);
      const seen = plain(row[i] ?? '');
      if (seen !== want) problems.push(`pattern table: ${id} in ${p.name} is "${seen}" tai, the profile has "${want}"`);
    }
  }
  return problems;
}

/** The anchor of a pattern's rule: `pattern-` and the id in kebab-case. */
export function patternAnchor(id: PatternId): string {
  return `pattern-${id.replaceAll('_', '-')}`;
}

/** (b) The replacements table (after `#replacements`) has one row per replacing pattern with each profile's list (as a set). */
export function checkReplacesTable(md: string, profiles: readonly Profile[]): string[] {
  const problems: string[] = [];
  const t = tableAfter(md, 'replacements');
  if (!t) return ['no table after #replacements'];
  const cols = profileColumns(t, profiles, 'replacements table', problems);
  const rows = new Map(t.rows.map((r) => [plain(r[0] ?? ''), r]));
  const keys = new Set(profiles.flatMap((p) => Object.keys(p.replaces)));
  const asSet = (s: string) => (s === '–' ? '' : s.split(',').map((x) => x.trim()).sort().join(', '));
  for (const k of keys) {
    const row = rows.get(k);
    if (!row) {
      problems.push(`replacements table: no row for ${k}`);
      continue;
    }
    for (const p of profiles) {
      const i = cols.get(p.name);
      if (i === undefined) continue;
      const want = asSet(formatValue('replaces', p.replaces[k as PatternId]));
      const seen = asSet(plain(row[i] ?? ''));
      if (seen !== want) problems.push(`replacements table: ${k} in ${p.name} replaces "${seen}", the profile "${want}"`);
    }
  }
  for (const k of rows.keys()) if (!keys.has(k)) problems.push(`replacements table: ${k} replaces nothing in any profile`);
  return problems;
}

/** A rule's profile line: `` `field` — p0 `v` · table `v` · … ``. */
const FIELD_LINE = /`([A-Za-z_][\w.]*)` — ((?:\w+ `[^`]*`(?: · )?)+)/g;

/** Every profile line in the document gives each profile's compiled value; returns the problems and how many lines were read. */
export function checkFieldLines(md: string, profiles: readonly Profile[]): { problems: string[]; lines: number } {
  const problems: string[] = [];
  let lines = 0;
  for (const m of md.matchAll(FIELD_LINE)) {
    lines++;
    const path = m[1]!;
    const given = new Map([...m[2]!.matchAll(/(\w+) `([^`]*)`/g)].map((x) => [x[1]!, x[2]!]));
    if (!profiles.some((p) => valueAt(p, path) !== undefined) && !path.startsWith('replaces.')) {
      problems.push(`profile line \`${path}\`: not a field of the compiled profiles`);
      continue;
    }
    for (const p of profiles) {
      const seen = given.get(p.name);
      const want = formatValue(path, valueAt(p, path));
      if (seen === undefined) problems.push(`profile line \`${path}\`: no value for ${p.name}`);
      else if (seen !== want) problems.push(`profile line \`${path}\`: ${p.name} is "${seen}", the profile has "${want}"`);
    }
    for (const name of given.keys()) if (!profiles.some((p) => p.name === name)) problems.push(`profile line \`${path}\`: unknown profile ${name}`);
  }
  return { problems, lines };
}

/** Code locations: `` `fn`, `other` in `src/file.ts` ``. */
const CODE_REF = /((?:`[A-Za-z_$][\w$]*`(?:,\s*|\s+and\s+)?)+)\s+in\s+`((?:src|bots|bench|scripts|test)\/[^`]+\.[mc]?[jt]s)`/g;

/** Every code location names a file that exists and that defines each named function, constant, type or method. */
export function checkCodeRefs(md: string, read: (path: string) => string | null): { problems: string[]; refs: number } {
  const problems: string[] = [];
  let refs = 0;
  for (const m of md.matchAll(CODE_REF)) {
    const file = m[2]!;
    const text = read(file);
    if (text === null) {
      problems.push(`code location ${file} does not exist`);
      continue;
    }
    for (const n of m[1]!.matchAll(/`([^`]+)`/g)) {
      refs++;
      const name = n[1]!.replaceAll('$', '\\$');
      const defined = new RegExp(
        `(?:function\\*?|const|let|class|interface|type|enum)\\s+${name}\\b|^\\s*(?:(?:export|public|private|protected|static|readonly|async|get|set)\\s+)*\\*?${name}\\s*[(<]`,
        'm',
      );
      if (!defined.test(text)) problems.push(`code location: ${file} does not define ${n[1]}`);
    }
  }
  return { problems, refs };
}

/** (c) Every docs/rules.md#<anchor> (or, inside docs/, rules.md#<anchor>) in the files names an anchor of the document. */
export function checkCitations(files: readonly TextFile[], anchors: ReadonlyMap<string, number>): { problems: string[]; citations: number } {
  const problems: string[] = [];
  let citations = 0;
  for (const f of files) {
    const re = f.path.startsWith('docs/') ? /(?:docs\/)?rules\.md#([\w-]+)/g : /docs\/rules\.md#([\w-]+)/g;
    for (const m of f.text.matchAll(re)) {
      citations++;
      if (!anchors.has(m[1]!)) problems.push(`${f.path}:${lineOf(f.text, m.index)} cites docs/rules.md#${m[1]}, which is not an anchor of ${DOC}`);
    }
  }
  return { problems, citations };
}

/** Links inside the document, `(#anchor)`, name anchors it has. */
export function checkInternalLinks(md: string): string[] {
  const anchors = anchorsOf(md);
  return [...md.matchAll(/\]\(#([^)]*)\)/g)].filter((m) => !anchors.has(m[1]!)).map((m) => `${DOC}:${lineOf(md, m.index)} links to #${m[1]}, which is not an anchor`);
}

/** (d) In code and tests the rules are cited as `docs/rules.md` only: any other spelling of `rules.md` (`RULES.md`, `shared/RULES.md`) is a problem. */
export function checkNoOldCitations(files: readonly TextFile[]): string[] {
  const problems: string[] = [];
  for (const f of files) {
    for (const m of f.text.matchAll(/rules\.md/gi)) {
      const ok = m[0] === 'rules.md' && f.text.slice(Math.max(0, m.index - 5), m.index) === 'docs/';
      if (!ok) problems.push(`${f.path}:${lineOf(f.text, m.index)} cites "${f.text.slice(Math.max(0, m.index - 7), m.index + 8).replace(/\s+/g, ' ')}"; cite docs/rules.md#<anchor>`);
    }
  }
  return problems;
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

// ───────────────────────── the document as it is ─────────────────────────

const md = readFileSync(join(ROOT, DOC), 'utf8');
const profiles = PROFILE_NAMES.map((n) => getProfile(n));
const readRepo = (p: string): string | null => (existsSync(join(ROOT, p)) ? readFileSync(join(ROOT, p), 'utf8') : null);

describe(`${DOC} against the code`, () => {
  it('has unique lowercase kebab-case anchors, and every link inside it resolves', () => {
    expect(checkAnchors(md)).toEqual([]);
    expect(checkInternalLinks(md)).toEqual([]);
  });

  it('(a) the field table gives every field of every built-in profile with its value', () => {
    expect(checkFieldTable(md, profiles)).toEqual([]);
  });

  it('(b) the pattern table gives every pattern id in order with its tai per profile; the replacements table every replaces list', () => {
    expect(checkPatternTable(md, profiles)).toEqual([]);
    expect(checkReplacesTable(md, profiles)).toEqual([]);
  });

  it("every rule's profile line gives the compiled values", () => {
    const { problems, lines } = checkFieldLines(md, profiles);
    expect(problems).toEqual([]);
    expect(lines).toBeGreaterThanOrEqual(PATTERN_IDS.length); // one per pattern at least: the format was not lost
  });

  it('every code location names an existing file that defines the function', () => {
    const { problems, refs } = checkCodeRefs(md, readRepo);
    expect(problems).toEqual([]);
    expect(refs).toBeGreaterThanOrEqual(PATTERN_IDS.length);
  });

  it('(c) every docs/rules.md#<anchor> cited in the repository exists', () => {
    const { problems, citations } = checkCitations(filesUnder(CITING), anchorsOf(md));
    expect(problems).toEqual([]);
    expect(citations).toBeGreaterThan(40);
  });

  it('(d) code and tests cite the rules only as docs/rules.md', () => {
    const files = filesUnder(CODE_DIRS).filter((f) => f.path !== SELF && f.path !== CONFORMANCE_COPY);
    expect(checkNoOldCitations(files)).toEqual([]);
  });

  it(`(d) the one exception, ${CONFORMANCE_COPY}, is still a verbatim copy of ../shared's conformance file`, () => {
    if (!existsSync(SHARED_CONFORMANCE)) return; // a clone without ../shared: nothing to compare with
    expect(readFileSync(join(ROOT, CONFORMANCE_COPY), 'utf8')).toBe(readFileSync(SHARED_CONFORMANCE, 'utf8'));
  });
});

describe('the checkers fire on wrong input', () => {
  it('a wrong profile value, a missing row, a field the document does not know', () => {
    const wrongValue = md.replace(/(\| `wallReserve` \|[^|]*\| )`16`/, '$1`17`');
    expect(wrongValue).not.toBe(md);
    expect(checkFieldTable(wrongValue, profiles)).toEqual(['field table: `wallReserve` in p0 is "17", the profile has "16"']);
    const noRow = md.replace(/^\| `minTai` \|.*\n/m, '');
    expect(checkFieldTable(noRow, profiles)).toEqual(['field table: no row for `minTai`']);
    const newField = { ...profiles[0]!, jokers: true } as Profile;
    expect(checkFieldTable(md, [newField])).toEqual(['field table: no row for `jokers`']);
    const badRule = md.replace(/(\| `perTai` \|.*)\(#stakes\)/, '$1(#nowhere)');
    expect(checkFieldTable(badRule, profiles)).toEqual(['field table: `perTai` links to #nowhere, which is not an anchor']);
  });

  it('a wrong tai, a missing pattern, a wrong replacement', () => {
    const wrongTai = md.replace(/(\| \[`eight_flowers`\][^\n]*?)\| 30 \|/, '$1| 31 |');
    expect(checkPatternTable(wrongTai, profiles)).toEqual(['pattern table: eight_flowers in flowers is "31" tai, the profile has "30"']);
    const missing = md.replace(/^\| \[`rob_kong`\].*\n/m, '');
    expect(checkPatternTable(missing, profiles)[0]).toMatch(/^pattern table: ids \[.*\] are not PATTERN_IDS in order/);
    const changed = { ...profiles[0]!, tai: { ...profiles[0]!.tai, all_pungs: 6 } } as Profile;
    expect(checkPatternTable(md, [changed])).toEqual(['pattern table: all_pungs in p0 is "4" tai, the profile has "6"']);
    const rep = md.replace(/(\| `fully_exposed` \| )`single_wait`/, '$1–');
    expect(checkReplacesTable(rep, profiles)).toEqual(['replacements table: fully_exposed in p0 replaces "", the profile "single_wait"']);
  });

  it('a wrong value on a profile line, a code location that names nothing', () => {
    const line = '`minTai` — p0 `0` · table `2` · casual `0` · flowers `0` · full `0`';
    expect(checkFieldLines(line, profiles).problems).toEqual(['profile line `minTai`: table is "2", the profile has "1"']);
    expect(checkFieldLines('`noSuchField` — p0 `1`', profiles).problems).toEqual(['profile line `noSuchField`: not a field of the compiled profiles']);
    const refs = '**Code:** `settle`, `settleEverything` in `src/rules/settle.ts`; `x` in `src/rules/nowhere.ts`.';
    expect(checkCodeRefs(refs, readRepo).problems).toEqual(['code location: src/rules/settle.ts does not define settleEverything', 'code location src/rules/nowhere.ts does not exist']);
  });

  it('a citation of a missing anchor, a duplicate or badly named anchor, a broken internal link', () => {
    const cite = (anchor: string) => `// see docs/rules.md${'#'}${anchor}`;
    const files = [
      { path: 'src/engine/x.ts', text: `${cite('settlement')}\n${cite('no-such-rule')}` },
      { path: 'docs/other.md', text: `[rules](rules.md${'#'}gone)` },
    ];
    expect(checkCitations(files, anchorsOf(md)).problems).toEqual([
      `src/engine/x.ts:2 cites ${cite('no-such-rule').slice(7)}, which is not an anchor of docs/rules.md`,
      `docs/other.md:1 cites ${cite('gone').slice(7)}, which is not an anchor of docs/rules.md`,
    ]);
    const doc = '<a id="deal"></a>\n<a id="deal"></a>\n<a id="Claim_Priority"></a>\nsee [x](#nowhere)';
    expect(checkAnchors(doc)).toEqual(['anchor "deal" occurs 2 times', 'anchor "Claim_Priority" is not lowercase kebab-case']);
    expect(checkInternalLinks(doc)).toEqual(['docs/rules.md:4 links to #nowhere, which is not an anchor']);
  });

  it('a citation of the old specification by any other name', () => {
    const old = ['RULES', 'md'].join('.');
    const files = [
      { path: 'src/a.ts', text: `// settlement: shared/${old} "Settlement"` },
      { path: 'test/b.test.ts', text: `it('as in ${old}', () => {});` },
      { path: 'src/c.ts', text: '// docs/rules.md#settlement is fine' },
    ];
    expect(checkNoOldCitations(files)).toEqual([
      `src/a.ts:1 cites "shared/${old}"; cite docs/rules.md#<anchor>`,
      `test/b.test.ts:1 cites "'as in ${old}"; cite docs/rules.md#<anchor>`,
    ]);
  });
});
