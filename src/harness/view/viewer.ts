/**
 * The hand viewer (`tw16 replay --html FILE`): one self-contained page showing a hand as the
 * referee sees it, step by step. The frames are computed in Node (handview.ts) and embedded as
 * JSON; a small inline script draws the current one (arrow keys, buttons, `#step=N`, 1-based).
 * Tiles are inline SVG symbols with MPSZ labels, so the page reads without CJK or mahjong fonts;
 * it loads nothing from anywhere, and the same hand always gives the same bytes.
 */
import { rankOf, suitOf, tileName, type Tile } from '../../core/tiles.js';
import type { Step } from '../../engine/types.js';
import { PATTERN_NAMES, WIND_LETTERS } from '../../rules/types.js';
import { writeAtomic } from '../io/files.js';
import { framesOf, seatName, type Frame, type HandHead, type ResultView } from './handview.js';

/** A hand to show: what it is, its steps (as traced), and the error it stopped on, if any. */
export interface HandPageInput {
  readonly head: HandHead;
  readonly steps: readonly Step[];
  /** A bot error that stopped the hand: shown as its last step. */
  readonly error?: string;
}

/** Write the viewer page of a hand to `path` (atomically). */
export function writeHandPage(path: string, input: HandPageInput): void {
  writeAtomic(path, handPage(input));
}

/** The viewer page of a hand. */
export function handPage({ head, steps, error }: HandPageInput): string {
  const frames = framesOf(steps, head);
  if (error !== undefined && frames.length > 0) frames.push({ ...frames.at(-1)!, text: `stopped: ${error}`, actor: -1, mark: null });
  const last = frames.at(-1)?.result;
  const title = `tw16 hand ${head.handKey} (seed ${head.seed}, rules ${head.rules})`;
  const meta = `seed ${head.seed} · rules ${head.rules} · round ${WIND_LETTERS[head.round]} · dealer seat ${head.dealer} · streak ${head.streak}`;
  const seats = [0, 1, 2, 3].map((s) => seatPanel(head, s, last)).join('\n');
  const log = frames.map((f, i) => `<li data-i="${i}">${esc(f.text)}</li>`).join('\n');
  const body = `<svg class="defs" aria-hidden="true"><defs>${TILE_SYMBOLS}</defs></svg>
<header><h1>Hand ${head.handKey}</h1><p class="meta">${esc(meta)}</p></header>
<nav class="bar"><button id="first" title="first step (Home)">&laquo;</button><button id="prev" title="previous step (&larr;)">&lsaquo; prev</button>
<span class="pos">step <output id="no">1</output> of ${frames.length}</span><button id="next" title="next step (&rarr;)">next &rsaquo;</button><button id="last" title="last step (End)">&raquo;</button>
<span class="wall">wall <output id="wall"></output> drawable · reserve ${head.reserve}</span><span class="keys">&larr; &rarr; Home End · link a step with #step=N</span></nav>
<p id="now" class="now"></p>
<div class="wrap"><section class="table">
${seats}
${resultPanel(head, last, error)}
</section>
<aside><ol id="log">
${log}
</ol></aside></div>
<script type="application/json" id="frames">${json(frames.map(encodeFrame))}</script>
<script>${SCRIPT}</script>`;
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${esc(title)}</title>\n<style>${STYLE}</style>\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
}

/** A seat's panel: who sits there (static), and the places the script fills per step. */
function seatPanel(head: HandHead, s: number, result: ResultView | undefined): string {
  const wind = WIND_LETTERS[(s - head.dealer + 4) & 3];
  const delta = result ? result.deltas[s]! : null;
  const badge = delta === null ? '' : `<span class="delta ${delta > 0 ? 'up' : delta < 0 ? 'down' : ''}">${delta > 0 ? '+' : ''}${delta}</span>`;
  return `<div class="seat" id="seat${s}"><div class="who"><span class="wind">${wind}</span><span>seat ${s}${s === head.dealer ? ' · dealer' : ''}</span><span class="bot">${esc(head.botNames[s] ?? '?')}</span><span class="rdy" hidden>ready</span>${badge}</div>
<div class="tiles"><span class="hand"></span><span class="drawn"></span><span class="melds"></span><span class="flowers"></span></div><div class="river"></div></div>`;
}

/** The end of the hand, shown on the last step: winners, patterns, tai, payments. */
function resultPanel(head: HandHead, r: ResultView | undefined, error: string | undefined): string {
  if (!r) return `<div id="result" class="result" hidden><p class="error">The hand stopped: ${esc(error ?? 'it did not finish')}</p></div>`;
  const who = (s: number) => `${seatName(s, head.dealer)} ${esc(head.botNames[s] ?? '')}`;
  const parts: string[] = [];
  if (r.outcome === 'draw') parts.push('<p>Drawn hand: the wall is down to the reserve; nobody pays.</p>');
  for (const w of r.winners) {
    const how =
      r.outcome === 'self_draw' ? `by self-draw${r.winningTile >= 0 ? ` on ${tileName(r.winningTile)}` : ''}` : r.outcome === 'instant' ? 'at once on flowers' : `on ${tileName(r.winningTile)} from ${who(r.discarder)}`;
    const rows = w.patterns.map(([id, tai]) => `<tr><td title="${PATTERN_NAMES[id]}">${id}</td><td>${tai}</td></tr>`).join('');
    parts.push(
      `<div class="winner"><h2>${who(w.seat)} wins ${how}</h2><table><tr><th>pattern</th><th>tai</th></tr>${rows}` +
        `<tr class="sum"><td>total</td><td><strong class="total" data-seat="${w.seat}">${w.tai} tai</strong></td></tr></table>` +
        `${w.ready ? '<p class="note">+1 tai for declaring ready, paid in settlement</p>' : ''}</div>`,
    );
  }
  for (const s of r.falseWins) parts.push(`<p>${who(s)} declared a win that is not one and pays the false-win penalty.</p>`);
  const pay = r.deltas.map((d, s) => `<tr><td>${who(s)}</td><td class="pay">${d > 0 ? '+' : ''}${d}</td></tr>`).join('');
  parts.push(`<table class="payments"><tr><th>payments</th><th>points</th></tr>${pay}</table>`);
  if (r.winners.length) parts.push('<p class="note">Payments include the dealer&rsquo;s tai (1 + 2 &times; streak) where the profile pays it.</p>');
  return `<div id="result" class="result" hidden>${parts.join('\n')}</div>`;
}

const ZONES = { hand: 0, drawn: 1, meld: 2, flower: 3, discard: 4 } as const;
const MELD_KINDS = ['chow', 'pung', 'kong', 'concealed_kong'] as const;

/**
 * A frame as the page's data: `x` text, `a` actor, `w` wall, `m` [seat, zone, index] or 0, and per
 * seat [hand, drawn, melds as [kind, from, taken, ...tiles], flowers, discards as tile | 64
 * (claimed) | 128 (ready), ready 0/1].
 */
function encodeFrame(f: Frame): unknown {
  return {
    x: f.text,
    a: f.actor,
    w: f.wall,
    m: f.mark ? [f.mark.seat, ZONES[f.mark.zone], f.mark.index] : 0,
    s: f.seats.map((q) => [
      q.hand,
      q.drawn,
      q.melds.map((m) => [MELD_KINDS.indexOf(m.kind), m.from, m.taken, ...m.tiles]),
      q.flowers,
      q.discards.map((d) => d.tile | (d.claimedBy >= 0 ? 64 : 0) | (d.ready ? 128 : 0)),
      q.ready ? 1 : 0,
    ]),
  };
}

/** Suit colours: characters, dots, bamboo, winds, then White, Green, Red, flowers. */
const INK = ['#b0202a', '#1d4f9c', '#17763a', '#222222', '#5b6b7c', '#17763a', '#b0202a', '#7b3f98'];
const HONOURS = ['E', 'S', 'W', 'N', 'Wh', 'Gr', 'Rd'];

/** One `<symbol id="tN">` per tile id (0–41): a rounded tile, a big label and its MPSZ name. */
const TILE_SYMBOLS = Array.from({ length: 42 }, (_, t: Tile) => {
  const suit = suitOf(t);
  const honour = suit === 3;
  const ink = suit < 3 ? INK[suit]! : honour ? (t < 31 ? INK[3]! : INK[4 + t - 31]!) : INK[7]!;
  const big = honour ? HONOURS[t - 27]! : String(rankOf(t));
  const small = honour ? tileName(t) : suit === 4 ? 'f' : 'mps'[suit]!;
  const face = suit === 4 ? '#f7f0fa' : '#fdfaf0';
  return (
    `<symbol id="t${t}" viewBox="0 0 30 40"><rect x="1" y="1" width="28" height="38" rx="4" fill="${face}" stroke="#9a927a" stroke-width="1.2"/>` +
    `<text x="15" y="22" text-anchor="middle" font-family="sans-serif" font-weight="bold" font-size="${big.length > 1 ? 14 : 18}" fill="${ink}">${big}</text>` +
    `<text x="15" y="35" text-anchor="middle" font-family="sans-serif" font-size="10" fill="${ink}">${small}</text></symbol>`
  );
}).join('');

const STYLE = `
body { font-family: sans-serif; margin: 1em auto; max-width: 1280px; padding: 0 1em; color: #222; background: #fff; }
h1 { font-size: 1.4em; margin: 0; } h2 { font-size: 1.05em; margin: .3em 0; }
.meta { color: #555; margin: .2em 0 .6em; }
.defs { position: absolute; width: 0; height: 0; }
.bar { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin-bottom: .5em; }
.bar button { font-size: 1em; padding: .2em .7em; }
.pos { min-width: 8em; text-align: center; font-variant-numeric: tabular-nums; }
.wall, .keys { color: #555; font-size: .9em; } .keys { margin-left: auto; }
.now { background: #fff4d6; border-left: 4px solid #f39c12; padding: .4em .7em; margin: .3em 0 .8em; font-weight: bold; min-height: 1.2em; }
.wrap { display: flex; gap: 1em; align-items: flex-start; }
.table { flex: 1; min-width: 0; }
aside { position: relative; width: 21em; max-height: calc(100vh - 11em); overflow-y: auto; font-size: .8em; border: 1px solid #ddd; }
#log { margin: 0; padding: .3em .3em .3em 3em; } #log li { cursor: pointer; padding: 1px 2px; }
#log li.cur { background: #fff4d6; font-weight: bold; }
.seat { border: 1px solid #ddd; border-radius: 6px; padding: .4em .6em; margin-bottom: .5em; }
.seat.act { border-color: #f39c12; box-shadow: 0 0 0 2px #f7c46c; }
.who { display: flex; gap: .8em; align-items: baseline; margin-bottom: .3em; }
.wind { font-weight: bold; font-size: 1.3em; width: 1.2em; }
.bot { color: #555; }
.rdy { background: #b0202a; color: #fff; padding: 0 .4em; border-radius: 3px; font-size: .85em; }
body:not(.end) .delta { display: none; } .delta { font-weight: bold; } .delta.up { color: #17763a; } .delta.down { color: #b0202a; }
.tiles { display: flex; flex-wrap: wrap; gap: .9em; align-items: flex-end; min-height: 42px; }
.t { width: 30px; height: 40px; vertical-align: bottom; }
.hand, .drawn, .melds, .flowers { display: inline-flex; gap: 1px; }
.melds { gap: .5em; } .meld { display: inline-flex; gap: 1px; padding: 1px; border-radius: 4px; background: #eef1f4; }
.meld.k3 { background: #dde3ea; outline: 1px dashed #7b8794; }
.t.tk { transform: translateY(-5px); }
.flowers .t { width: 24px; height: 32px; }
.river { display: flex; flex-wrap: wrap; gap: 1px; margin-top: .35em; min-height: 29px; }
.river .t { width: 22px; height: 29px; }
.t.cl { opacity: .3; } .t.rd { box-shadow: 0 3px 0 #b0202a; }
.hl, .t.hl { outline: 3px solid #f39c12; outline-offset: 1px; border-radius: 4px; }
.result { border: 2px solid #17763a; border-radius: 6px; padding: .5em .8em; }
.result table { border-collapse: collapse; margin: .3em 0; font-size: .9em; }
.result td, .result th { padding: .15em .6em; border-bottom: 1px solid #e4e4e4; text-align: left; }
.result tr.sum td { border-top: 2px solid #999; }
.note { color: #555; font-size: .85em; } .error { color: #b0202a; font-weight: bold; }
`;

/** The page's script: draws frame `cur` into the seat panels; steps with keys, buttons and `#step=N`. */
const SCRIPT = `
var F = JSON.parse(document.getElementById('frames').textContent), cur = -1;
function $(id) { return document.getElementById(id); }
function tile(t, cls) { return '<svg class="t ' + (cls || '') + '" viewBox="0 0 30 40"><use href="#t' + t + '"/></svg>'; }
function render() {
  var f = F[cur], m = f.m;
  function hl(s, z, i) { return m && m[0] === s && m[1] === z && m[2] === i ? ' hl' : ''; }
  for (var s = 0; s < 4; s++) {
    var q = f.s[s], el = $('seat' + s), part = function (c) { return el.querySelector('.' + c); };
    el.classList.toggle('act', f.a === s);
    part('rdy').hidden = !q[5];
    part('hand').className = 'hand' + hl(s, 0, -1);
    part('hand').innerHTML = q[0].map(function (t) { return tile(t); }).join('');
    part('drawn').innerHTML = q[1] >= 0 ? tile(q[1], hl(s, 1, -1)) : '';
    part('melds').innerHTML = q[2].map(function (x, i) {
      return '<span class="meld k' + x[0] + hl(s, 2, i) + '">' + x.slice(3).map(function (t, j) { return tile(t, j === x[2] ? 'tk' : ''); }).join('') + '</span>';
    }).join('');
    part('flowers').innerHTML = q[3].map(function (t, i) { return tile(t, hl(s, 3, i)); }).join('');
    part('river').innerHTML = q[4].map(function (d, i) { return tile(d & 63, (d & 64 ? 'cl' : '') + (d & 128 ? ' rd' : '') + hl(s, 4, i)); }).join('');
  }
  $('no').textContent = cur + 1;
  $('wall').textContent = f.w;
  $('now').textContent = f.x;
  $('result').hidden = cur !== F.length - 1;
  document.body.classList.toggle('end', cur === F.length - 1);
  var li = document.querySelectorAll('#log li');
  for (var i = 0; i < li.length; i++) li[i].className = i === cur ? 'cur' : '';
  var box = $('log').parentNode, at = li[cur];
  if (at.offsetTop < box.scrollTop || at.offsetTop + at.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = at.offsetTop - box.clientHeight / 2;
}
function go(n, fromHash) {
  n = Math.max(0, Math.min(F.length - 1, n | 0));
  if (n !== cur) { cur = n; render(); }
  if (!fromHash) location.replace('#step=' + (cur + 1));
}
function fromHash() { var h = /step=(\\d+)/.exec(location.hash); go(h ? Number(h[1]) - 1 : 0, true); }
$('first').onclick = function () { go(0); };
$('prev').onclick = function () { go(cur - 1); };
$('next').onclick = function () { go(cur + 1); };
$('last').onclick = function () { go(F.length - 1); };
$('log').onclick = function (e) { var i = e.target.getAttribute('data-i'); if (i !== null) go(Number(i)); };
addEventListener('keydown', function (e) {
  var n = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: F.length - 1 }[e.key];
  if (n !== undefined) { e.preventDefault(); go(n); }
});
addEventListener('hashchange', fromHash);
fromHash();
`;

/** JSON safe inside a script element. */
function json(v: unknown): string {
  return JSON.stringify(v).replace(/</g, '\\u003c');
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
