#!/usr/bin/env bash
# Installs (when missing) and starts the PostgreSQL 15 + PostGIS 3 cluster the test suites use, and lets the
# `postgres` role in from 127.0.0.1 and ::1 without a password, as the tests' TEST_POSTGRES_URL default expects
# (postgres://postgres@127.0.0.1:5432/postgres). For a test or development machine only: never run it on a host
# whose PostgreSQL holds anything of value. Idempotent; needs root (apt-get, pg_ctlcluster).
set -euo pipefail

version=15
packages=()
[ -x "/usr/lib/postgresql/$version/bin/postgres" ] || packages+=("postgresql-$version")
[ -f "/usr/share/postgresql/$version/extension/postgis.control" ] || packages+=("postgresql-$version-postgis-3")
if [ ${#packages[@]} -gt 0 ]; then
  echo "postgres: installing ${packages[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
fi

# Debian's package creates the cluster `main`; a machine where it was dropped gets it again.
if ! pg_lsclusters -h | awk '{print $1, $2}' | grep -qx "$version main"; then
  pg_createcluster "$version" main >/dev/null
fi

# The first rules of pg_hba.conf win: trust the superuser from the loopback addresses (marked, written once).
hba="/etc/postgresql/$version/main/pg_hba.conf"
marker='# specyard tests: trust postgres on loopback'
if ! grep -qF "$marker" "$hba"; then
  tmp=$(mktemp)
  {
    echo "$marker"
    echo "host    all             postgres        127.0.0.1/32            trust"
    echo "host    all             postgres        ::1/128                 trust"
    cat "$hba"
  } >"$tmp"
  install -o postgres -g postgres -m 0640 "$tmp" "$hba"
  rm -f "$tmp"
  reload=1
fi

if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
elif [ "${reload:-0}" = 1 ]; then
  pg_ctlcluster --skip-systemctl-redirect "$version" main reload
fi

for _ in $(seq 1 30); do
  pg_isready -h 127.0.0.1 -p 5432 -q && break
  sleep 1
done
psql -h 127.0.0.1 -U postgres -d postgres -Atqc 'SELECT 1' >/dev/null
echo "postgres: $version ready on 127.0.0.1:5432 (PostGIS $(ls /usr/share/postgresql/$version/extension/postgis--*.sql 2>/dev/null | sed -n 's/.*postgis--\([0-9.]*\)\.sql$/\1/p' | sort -V | tail -1))"
