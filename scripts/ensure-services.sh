#!/usr/bin/env bash
# The multi-process proof runs the distributed mode for real: redis-server, and PostgreSQL 15 (a
# throwaway cluster of its own unless TEST_DATABASE_URL names one). Finds them, or installs them with
# apt-get when running as root.
set -euo pipefail
need=()
command -v "${REDIS_SERVER_BIN:-redis-server}" >/dev/null || need+=(redis-server)
if [ -z "${TEST_DATABASE_URL:-}" ] && [ ! -x /usr/lib/postgresql/15/bin/initdb ]; then need+=(postgresql-15); fi
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing ${need[*]} for the multi-process proof…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  exit 0
fi
echo "The multi-process proof needs ${need[*]}: install them (sudo apt-get install ${need[*]})." >&2
exit 1
