#!/usr/bin/env bash
# The whole test suite on a fresh Debian machine: installs PostgreSQL, pg_auto_failover and Chromium
# from Debian if they are missing, installs the project (npm ci), then runs lint, type checks and every test on
# SQLite and on a throwaway PostgreSQL cluster (started and removed by the test run itself).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
[ -x /usr/bin/chromium ] || missing+=(chromium)
# The README's first-call examples are run by the tests in curl and Python (standard library only).
command -v curl >/dev/null || missing+=(curl)
command -v python3 >/dev/null || missing+=(python3)
# The ingest memory tests measure peak memory with GNU time.
[ -x /usr/bin/time ] || missing+=(time)
# The failover tests build a pg_auto_failover formation (monitor and two nodes) from Debian's packages.
command -v pg_autoctl >/dev/null || missing+=(postgresql-15-auto-failover pg-auto-failover-cli)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=''
  [ "$(id -u)" -eq 0 ] || sudo='sudo'
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi

npm ci
npm test -- "$@"
