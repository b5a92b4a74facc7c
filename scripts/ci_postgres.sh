#!/usr/bin/env bash
# Start Debian's PostgreSQL for the test run and print the URL of a fresh test database.
# Used by .ci/run (as root, on a fresh machine); the store and restart tests run on it when
# TORITE_TEST_POSTGRES is set, and on SQLite always.
set -euo pipefail
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q "^$version main"; then
  pg_createcluster "$version" main >/dev/null
fi
pg_ctlcluster "$version" main start >/dev/null 2>&1 || true
for _ in $(seq 1 30); do
  if su postgres -c "psql -qtAc 'select 1'" >/dev/null 2>&1; then break; fi
  sleep 1
done
su postgres -c "PGOPTIONS='-c client_min_messages=warning' psql -qtA -v ON_ERROR_STOP=1" >/dev/null <<'SQL'
DROP DATABASE IF EXISTS torite_test;
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'torite') THEN
    CREATE ROLE torite LOGIN CREATEDB PASSWORD 'torite';
  END IF;
END $$;
CREATE DATABASE torite_test OWNER torite;
SQL
echo "postgresql://torite:torite@127.0.0.1:5432/torite_test"
