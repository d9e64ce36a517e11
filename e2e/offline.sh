#!/usr/bin/env bash
# The browser tests run with the network cut to loopback: in a new network namespace (unshare -rn)
# only 127.0.0.1 exists, so a stray call to a real provider fails instead of passing silently.
# Arguments go to `playwright test`.
set -euo pipefail
cd "$(dirname "$0")"
if ! unshare -rn true 2>/dev/null; then
  echo "offline.sh: this machine cannot make a network namespace (unshare -rn); refusing to run online." >&2
  exit 1
fi
exec unshare -rn bash -c 'ip link set lo up && exec npx playwright test "$@"' offline "$@"
