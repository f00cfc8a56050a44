#!/usr/bin/env bash
# Render a tw16 report.html in headless Chromium (Debian's `chromium` package), take a
# screenshot, and fail if the page did not render cleanly:
#   - the DOM Chromium built (--dump-dom) must hold as many <svg> charts as the file;
#   - Chromium's log must show no console message, uncaught error or failed load (the
#     network is switched off, so anything the page tried to fetch shows up here).
#
#   scripts/screenshot-report.sh REPORT.html [OUT.png] [WIDTHxHEIGHT]
#
# Exit 0 when clean (prints the PNG path), 1 on a rendering problem, 2 on bad arguments,
# 3 when no Chromium is installed (set CHROMIUM to use another binary).
set -euo pipefail

html=${1:?usage: scripts/screenshot-report.sh REPORT.html [OUT.png] [WIDTHxHEIGHT]}
png=${2:-${html%.html}.png}
size=${3:-1280x2400}
. "$(dirname "$0")/chromium.sh"

[[ -f $html ]] || { echo "screenshot-report: $html: no such file" >&2; exit 2; }
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || { echo "screenshot-report: size must be WIDTHxHEIGHT, got $size" >&2; exit 2; }
chromium_ready screenshot-report

url="file://$(cd "$(dirname "$html")" && pwd)/$(basename "$html")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

chromium_run "$url" "$work" --dump-dom >"$work/dom.html" 2>"$work/dom.log" || { echo "screenshot-report: chromium --dump-dom failed:" >&2; cat "$work/dom.log" >&2; exit 1; }
chromium_run "$url" "$work" --screenshot="$png" --window-size="${size/x/,}" >/dev/null 2>"$work/shot.log" || { echo "screenshot-report: chromium --screenshot failed:" >&2; cat "$work/shot.log" >&2; exit 1; }

status=0
want=$(grep -o '<svg' "$html" | wc -l)
got=$(grep -o '<svg' "$work/dom.html" | wc -l)
if [[ $want -eq 0 || $got -ne $want ]]; then
  echo "screenshot-report: the file has $want <svg> charts, the rendered DOM $got" >&2
  status=1
fi
if chromium_page_errors "$work/errors.txt" "$work/dom.log" "$work/shot.log"; then
  echo "screenshot-report: the page logged errors:" >&2
  cat "$work/errors.txt" >&2
  status=1
fi
if [[ ! -s $png ]]; then
  echo "screenshot-report: no screenshot written to $png" >&2
  status=1
fi
[[ $status -eq 0 ]] && echo "$png ($got charts rendered, no page errors)"
exit $status
