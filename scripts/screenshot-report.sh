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
chromium=${CHROMIUM:-/usr/bin/chromium}

[[ -f $html ]] || { echo "screenshot-report: $html: no such file" >&2; exit 2; }
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || { echo "screenshot-report: size must be WIDTHxHEIGHT, got $size" >&2; exit 2; }
[[ -x $chromium ]] || { echo "screenshot-report: $chromium not found (apt-get install chromium, or set CHROMIUM)" >&2; exit 3; }

url="file://$(cd "$(dirname "$html")" && pwd)/$(basename "$html")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One profile directory per call: Chromium refuses to share one between two instances.
run_chromium() {
  local profile
  profile=$(mktemp -d "$work/profile.XXXXXX")
  "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir="$profile" \
    --enable-logging=stderr --v=0 --hide-scrollbars "$@" "$url"
}

run_chromium --dump-dom >"$work/dom.html" 2>"$work/dom.log" || { echo "screenshot-report: chromium --dump-dom failed:" >&2; cat "$work/dom.log" >&2; exit 1; }
run_chromium --screenshot="$png" --window-size="${size/x/,}" >/dev/null 2>"$work/shot.log" || { echo "screenshot-report: chromium --screenshot failed:" >&2; cat "$work/shot.log" >&2; exit 1; }

status=0
want=$(grep -o '<svg' "$html" | wc -l)
got=$(grep -o '<svg' "$work/dom.html" | wc -l)
if [[ $want -eq 0 || $got -ne $want ]]; then
  echo "screenshot-report: the file has $want <svg> charts, the rendered DOM $got" >&2
  status=1
fi
# Errors from the page itself; Chromium's own noise in a container (no D-Bus, no GPU) is not one.
if grep -hE 'CONSOLE|Uncaught|net::ERR_|Failed to load|Refused to' "$work/dom.log" "$work/shot.log" >"$work/errors.txt"; then
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
