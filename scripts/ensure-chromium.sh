#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (never a downloaded browser: this machine cannot fetch one).
# Finds it, or installs it with apt-get when running as root.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium for the browser tests…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  exit 0
fi
echo "Chromium not found at $CHROMIUM. Install it (sudo apt-get install chromium) or set CHROMIUM_PATH." >&2
exit 1
