#!/usr/bin/env bash
# Throwaway PostgreSQL 15 + pgvector cluster for tests, the CLI and CI.
#
#   scripts/local-pg.sh install          install pgvector when missing (Debian, root)
#   scripts/local-pg.sh start            start the cluster (idempotent); prints its JDBC URL
#   scripts/local-pg.sh stop [--purge]   stop it (and delete its data with --purge)
#   scripts/local-pg.sh status|url|pid   what runs, its URL, its postmaster pid
#
# Options / environment:
#   --name NAME   SCHEMARAG_PG_NAME   cluster name (default: default); one data dir per name
#   --root DIR    SCHEMARAG_PG_ROOT   where clusters live (default: ${TMPDIR:-/tmp}/schemarag-pg)
#                 SCHEMARAG_PG_BIN    PostgreSQL bin dir (default: /usr/lib/postgresql/15/bin)
#
# The cluster listens on 127.0.0.1 on a free non-default port, with wal_level=logical and
# replication allowed (trust auth: it is a local throwaway). A user who has a database
# sets SCHEMARAG_DB_URL instead and never needs this script.
set -euo pipefail

cmd=${1:-}; [ $# -gt 0 ] && shift
name=${SCHEMARAG_PG_NAME:-default}
root=${SCHEMARAG_PG_ROOT:-${TMPDIR:-/tmp}/schemarag-pg}
purge=0
while [ $# -gt 0 ]; do
  case "$1" in
    --name) name=$2; shift 2 ;;
    --root) root=$2; shift 2 ;;
    --purge) purge=1; shift ;;
    *) echo "local-pg: unknown option '$1'" >&2; exit 2 ;;
  esac
done

die() { echo "local-pg: $*" >&2; exit 1; }

find_bin() {
  if [ -n "${SCHEMARAG_PG_BIN:-}" ]; then echo "$SCHEMARAG_PG_BIN"; return; fi
  if [ -x /usr/lib/postgresql/15/bin/pg_ctl ]; then echo /usr/lib/postgresql/15/bin; return; fi
  local d; d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$d" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return; fi
  if command -v pg_ctl >/dev/null 2>&1; then dirname "$(command -v pg_ctl)"; return; fi
  die "no PostgreSQL server binaries found. Install PostgreSQL 15 (Debian: apt-get install postgresql-15) or set SCHEMARAG_PG_BIN, or point SCHEMARAG_DB_URL at an existing database with pgvector."
}

BIN=$(find_bin)
PG_CONFIG="$BIN/pg_config"
[ -x "$PG_CONFIG" ] || PG_CONFIG=$(command -v pg_config || true)
dir="$root/$name"
data="$dir/data"

# Run a PostgreSQL tool as a non-root user: the server refuses to run as root.
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

has_pgvector() {
  local share
  share=$("$PG_CONFIG" --sharedir 2>/dev/null || echo /usr/share/postgresql/15)
  [ -f "$share/extension/vector.control" ]
}

install_pgvector() {
  has_pgvector && return 0
  local why="pgvector is not installed for $("$PG_CONFIG" --version 2>/dev/null || echo PostgreSQL)"
  [ "$(id -u)" = 0 ] || die "$why and installing it needs root: run 'sudo scripts/local-pg.sh install', or install your distribution's pgvector package for PostgreSQL 15, or set SCHEMARAG_DB_URL to a database that has pgvector."
  command -v apt-get >/dev/null 2>&1 || die "$why and this is not a Debian-like system: build pgvector from source (make && make install against pg_config), or set SCHEMARAG_DB_URL to a database that has pgvector."
  echo "local-pg: $why; building it from Debian's pgvector source package" >&2
  # Reuse the Debian mirror this machine is already configured with, for trixie's source.
  local uri
  uri=$(awk '/^URIs:/{u=$2} /^Suites:/ && / bookworm( |$)/{print u; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [ -n "$uri" ] || uri=$(awk '$1=="deb" && $3=="bookworm" {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  [ -n "$uri" ] || die "$why and no Debian bookworm apt source was found to derive a trixie deb-src line from."
  local work; work=$(mktemp -d)
  mkdir -p "$work/lists/partial"
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri trixie main" > "$work/sources.list"
  local aptopts=(-o "Dir::Etc::sourcelist=$work/sources.list" -o Dir::Etc::sourceparts=/dev/null -o "Dir::State::Lists=$work/lists")
  apt-get "${aptopts[@]}" update -qq >&2 || die "apt-get update for the pgvector source failed"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-server-dev-15 make gcc >&2 \
    || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-server-dev-15 make gcc >&2; } \
    || die "could not install postgresql-server-dev-15"
  (cd "$work" && apt-get "${aptopts[@]}" source -qq pgvector >&2) || die "apt-get source pgvector failed"
  local src; src=$(ls -d "$work"/pgvector-*/ | head -n 1)
  (cd "$src" && make -s PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config >&2 && make -s install PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config >&2) \
    || die "building pgvector failed (see the output above)"
  rm -rf "$work"
  has_pgvector || die "pgvector build finished but vector.control is still missing"
  echo "local-pg: pgvector installed" >&2
}

is_running() { [ -f "$data/PG_VERSION" ] && as_pg "$BIN/pg_ctl" -D "$data" status >/dev/null 2>&1; }

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pick_port() {
  local p
  for p in $(seq 54330 54999); do port_free "$p" && { echo "$p"; return; }; done
  die "no free TCP port in 54330-54999"
}

pick_port_after() {
  for p in $(seq $(($1 + 1)) 54999); do port_free "$p" && { echo "$p"; return; }; done
  die "no free TCP port in $(($1 + 1))-54999"
}

url() { echo "jdbc:postgresql://127.0.0.1:$(cat "$dir/port")/postgres?user=postgres"; }

start() {
  install_pgvector
  if is_running; then url; return; fi
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; chmod 755 "$root" "$dir" 2>/dev/null || true; fi
  if [ ! -f "$data/PG_VERSION" ]; then
    as_pg "$BIN/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 \
      || die "initdb failed: $(tail -n 5 "$dir/initdb.log")"
    cat >>"$data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$data'
wal_level = logical
max_wal_senders = 10
max_replication_slots = 10
fsync = off
synchronous_commit = on
max_connections = 200
# An initial index writes each embedded chunk's vector three times (chunk, searched text, embedding
# cache): 387 MB at 10,000 tables when every chunk was embedded. With the defaults (128MB, 1GB)
# PostgreSQL took about a third more CPU for it.
shared_buffers = 512MB
max_wal_size = 4GB
CONF
  fi
  local port attempt
  if [ -f "$dir/port" ] && port_free "$(cat "$dir/port")"; then port=$(cat "$dir/port"); else port=$(pick_port); fi
  # The port range lies within the kernel's ephemeral ports: a client socket may hold a port that
  # no listener shows, and the bind fails. Then the next free port is tried.
  for attempt in 1 2 3 4 5; do
    # The last setting in postgresql.conf wins: appending keeps restarts idempotent.
    echo "port = $port" >>"$data/postgresql.conf"
    echo "$port" >"$dir/port.tmp" && mv "$dir/port.tmp" "$dir/port"
    if as_pg "$BIN/pg_ctl" -D "$data" -l "$data/server.log" -w -t 30 start >/dev/null 2>&1; then
      url
      return
    fi
    tail -n 5 "$data/server.log" 2>/dev/null | grep -q "could not bind" || break
    port=$(pick_port_after "$port")
  done
  die "PostgreSQL did not start: $(tail -n 5 "$data/server.log" 2>/dev/null)"
}

stop() {
  if is_running; then as_pg "$BIN/pg_ctl" -D "$data" -m fast -w -t 30 stop >/dev/null; fi
  if [ "$purge" = 1 ]; then rm -rf "$dir"; fi
  return 0
}

case "$cmd" in
  install) install_pgvector ;;
  start) start ;;
  stop) stop ;;
  status) if is_running; then echo "running $(url) data=$data"; else echo "stopped data=$data"; fi ;;
  url) is_running || die "cluster '$name' is not running (scripts/local-pg.sh start)"; url ;;
  pid) is_running || die "cluster '$name' is not running"; head -n 1 "$data/postmaster.pid" ;;
  *) echo "usage: local-pg.sh {install|start|stop [--purge]|status|url|pid} [--name NAME] [--root DIR]" >&2; exit 2 ;;
esac
