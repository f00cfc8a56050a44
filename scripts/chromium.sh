#!/usr/bin/env bash
# Headless Chromium for the page checks (scripts/screenshot-hand.sh, scripts/screenshot-report.sh):
# sourced, not run. Defines
#   chromium_ready NAME             exit 3 naming NAME when no Chromium is installed ($CHROMIUM or
#                                   Debian's /usr/bin/chromium)
#   chromium_run URL WORK ARGS...   one headless Chromium on URL with the network switched off and
#                                   a profile directory of its own under WORK (Chromium refuses to
#                                   share one between two instances)
#   chromium_page_errors OUT LOG... the page's own errors in Chromium's logs, written to OUT;
#                                   status 0 when there are some (Chromium's noise in a container,
#                                   no D-Bus, no GPU, is not one)
chromium=${CHROMIUM:-/usr/bin/chromium}

chromium_ready() {
  [[ -x $chromium ]] || { echo "$1: $chromium not found (apt-get install chromium, or set CHROMIUM)" >&2; exit 3; }
}

chromium_run() {
  local url=$1 work=$2 profile
  shift 2
  profile=$(mktemp -d "$work/profile.XXXXXX")
  "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir="$profile" \
    --enable-logging=stderr --v=0 --hide-scrollbars "$@" "$url"
}

chromium_page_errors() {
  local out=$1
  shift
  grep -hE 'CONSOLE|Uncaught|net::ERR_|Failed to load|Refused to' "$@" >"$out"
}

# Run (not sourced): `scripts/chromium.sh dom URL` prints the DOM Chromium built for URL; the
# page's own errors go to stderr and make the exit status 1 (3: no Chromium, 2: bad arguments).
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  set -euo pipefail
  [[ $# -eq 2 && $1 == dom ]] || { echo 'usage: scripts/chromium.sh dom URL' >&2; exit 2; }
  chromium_ready chromium.sh
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  chromium_run "$2" "$work" --dump-dom 2>"$work/log" || { echo "chromium.sh: chromium --dump-dom failed:" >&2; cat "$work/log" >&2; exit 1; }
  if chromium_page_errors "$work/errors.txt" "$work/log"; then
    cat "$work/errors.txt" >&2
    exit 1
  fi
fi
