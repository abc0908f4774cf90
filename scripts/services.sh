#!/usr/bin/env bash
# Install and start what the web tests need beyond Python: PostgreSQL (a cluster on 127.0.0.1 with a
# throwaway database) and Chromium (Debian's package, driven by Playwright's Python package).
#
#   eval "$(bash scripts/services.sh)"     # sets KASHGAR_TEST_PG_URL for the persistence tests
#
# Idempotent: installs only what is missing, starts the cluster if it is down, creates the role and
# the database once. Everything but the final `export` line goes to stderr. Needs root for apt-get
# (as in CI); without root it uses what is already installed.
set -euo pipefail

log() { echo "services: $*" >&2; }
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -n -u postgres "$@"; fi; }

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    log "missing ${need[*]} and not root: install them with apt-get (Debian packages)"; exit 1
  fi
  log "installing ${need[*]} ..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "${need[@]}" >&2
fi
log "chromium: $(chromium --version 2>/dev/null | head -1)"

# The first PostgreSQL cluster (Debian creates "main" when the package is installed).
read -r ver cluster port status _ < <(pg_lsclusters --no-header 2>/dev/null | head -1 || true) || true
if [ -z "${ver:-}" ]; then
  ver=$(basename "$(dirname "$(dirname "$(ls -d /usr/lib/postgresql/*/bin/pg_ctl | sort -V | tail -1)")")")
  log "creating cluster $ver/main"
  pg_createcluster "$ver" main >&2
  read -r ver cluster port status _ < <(pg_lsclusters --no-header | head -1)
fi
if [ "$status" != "online" ]; then
  log "starting cluster $ver/$cluster on port $port"
  pg_ctlcluster "$ver" "$cluster" start >&2
fi
for _ in $(seq 1 50); do
  as_postgres psql -p "$port" -qtAc "SELECT 1" >/dev/null 2>&1 && break
  sleep 0.2
done

user=kashgar
password=kashgar
db=kashgar_test
if [ "$(as_postgres psql -p "$port" -qtAc "SELECT 1 FROM pg_roles WHERE rolname='$user'")" != 1 ]; then
  as_postgres psql -p "$port" -qc "CREATE ROLE $user LOGIN PASSWORD '$password'" >&2
fi
if [ "$(as_postgres psql -p "$port" -qtAc "SELECT 1 FROM pg_database WHERE datname='$db'")" != 1 ]; then
  as_postgres psql -p "$port" -qc "CREATE DATABASE $db OWNER $user" >&2
fi
log "PostgreSQL $ver ready on 127.0.0.1:$port, database $db"
echo "export KASHGAR_TEST_PG_URL=postgresql://$user:$password@127.0.0.1:$port/$db"
