#!/usr/bin/env bash
# Render a tw16 hand viewer page (`tw16 replay --html FILE`) at one step in headless Chromium
# (Debian's `chromium` package), take a screenshot, and fail if the page did not render cleanly:
#   - the DOM Chromium built (--dump-dom) must show that step (`step N of M`);
#   - Chromium's log must show no console message, uncaught error or failed load (the network
#     is switched off, so anything the page tried to fetch shows up here).
#
#   scripts/screenshot-hand.sh HAND.html STEP [OUT.png] [WIDTHxHEIGHT]
#
# STEP is 1-based, as in the page's #step=N. DOM_OUT=FILE keeps the rendered DOM.
# Exit 0 when clean (prints the PNG path), 1 on a rendering problem, 2 on bad arguments,
# 3 when no Chromium is installed (set CHROMIUM to use another binary).
set -euo pipefail

usage='usage: scripts/screenshot-hand.sh HAND.html STEP [OUT.png] [WIDTHxHEIGHT]'
html=${1:?$usage}
step=${2:?$usage}
png=${3:-${html%.html}-step$step.png}
size=${4:-1280x900}
. "$(dirname "$0")/chromium.sh"

[[ -f $html ]] || { echo "screenshot-hand: $html: no such file" >&2; exit 2; }
[[ $step =~ ^[1-9][0-9]*$ ]] || { echo "screenshot-hand: STEP must be a whole number from 1, got $step" >&2; exit 2; }
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || { echo "screenshot-hand: size must be WIDTHxHEIGHT, got $size" >&2; exit 2; }
chromium_ready screenshot-hand

url="file://$(cd "$(dirname "$html")" && pwd)/$(basename "$html")#step=$step"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

chromium_run "$url" "$work" --dump-dom >"$work/dom.html" 2>"$work/dom.log" || { echo "screenshot-hand: chromium --dump-dom failed:" >&2; cat "$work/dom.log" >&2; exit 1; }
chromium_run "$url" "$work" --screenshot="$png" --window-size="${size/x/,}" >/dev/null 2>"$work/shot.log" || { echo "screenshot-hand: chromium --screenshot failed:" >&2; cat "$work/shot.log" >&2; exit 1; }
[[ -z ${DOM_OUT:-} ]] || cp "$work/dom.html" "$DOM_OUT"

status=0
if ! grep -q "<output id=\"no\">$step</output>" "$work/dom.html"; then
  echo "screenshot-hand: the rendered page does not show step $step (is the hand that long?)" >&2
  status=1
fi
if chromium_page_errors "$work/errors.txt" "$work/dom.log" "$work/shot.log"; then
  echo "screenshot-hand: the page logged errors:" >&2
  cat "$work/errors.txt" >&2
  status=1
fi
if [[ ! -s $png ]]; then
  echo "screenshot-hand: no screenshot written to $png" >&2
  status=1
fi
[[ $status -eq 0 ]] && echo "$png (step $step rendered, no page errors)"
exit $status
