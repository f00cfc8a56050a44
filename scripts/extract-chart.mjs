#!/usr/bin/env node
// Copy one chart out of a tw16 report.html as a standalone SVG file (how
// docs/points-per-bot.svg was made):
//   node scripts/extract-chart.mjs results/default/report.html arm0-points docs/points-per-bot.svg
// Chart ids: armN-points, armN-rates, armN-tai, armN-patterns (N = rule arm); diffN-bots,
// diffN-patterns in a diff-report.html.
import { readFileSync, writeFileSync } from 'node:fs';

const [html, id, out] = process.argv.slice(2);
if (!html || !id || !out) {
  process.stderr.write('usage: node scripts/extract-chart.mjs REPORT.html CHART_ID OUT.svg\n');
  process.exit(2);
}
const text = readFileSync(html, 'utf8');
const start = text.indexOf(`<figure id="${id}">`);
const svgStart = start < 0 ? -1 : text.indexOf('<svg', start);
const svgEnd = svgStart < 0 ? -1 : text.indexOf('</svg>', svgStart);
if (svgEnd < 0) {
  process.stderr.write(`extract-chart: no chart "${id}" in ${html}\n`);
  process.exit(1);
}
writeFileSync(out, `${text.slice(svgStart, svgEnd + '</svg>'.length)}\n`);
process.stdout.write(`wrote ${out}\n`);
