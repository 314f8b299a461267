#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on loopback for the service tests.
# Prints two words: the connection URL and the data directory (stop it with `.ci/postgres.sh stop DIR`).
# Installs Debian's postgresql package when it is missing (CI runs as root).
set -euo pipefail
if ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
if [ "${1:-}" = stop ]; then
  su postgres -s /bin/sh -c "$bin/pg_ctl -D $2 -m fast stop" >/dev/null
  rm -rf "$2"
  exit 0
fi
port=54329
while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
  port=$((port + 1))
done
data=$(mktemp -d /tmp/spielleiter-pg.XXXXXX)
chown postgres "$data"
su postgres -s /bin/sh -c "$bin/initdb -D $data -A trust -U postgres" >/dev/null
su postgres -s /bin/sh -c "$bin/pg_ctl -D $data -l $data/log -o '-k /tmp -h 127.0.0.1 -p $port' -w start" >/dev/null
echo "postgres://postgres@127.0.0.1:$port/postgres $data"
