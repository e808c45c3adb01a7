# shellcheck shell=bash
# Sourced by test.sh (bash, `set -euo pipefail`): start a throwaway PostgreSQL cluster for the
# PostgreSQL store tests, and export
#   SAWBONES_TEST_PG_URL   postgresql+psycopg://sawbones@127.0.0.1:PORT/sawbones_test
#   SAWBONES_TEST_PG_DIR   the cluster's temporary directory (data/, server.log)
#   SAWBONES_TEST_PG_STOP  the command that stops it (the pytest session runs it at its end)
#   SAWBONES_REQUIRE_PG=1  from here on, PostgreSQL tests fail instead of skipping if it is absent
#
# - Installs Debian's postgresql with apt-get when initdb/pg_ctl are missing, only as root or with
#   password-less sudo; set SAWBONES_PG_NO_INSTALL=1 to never install.
# - As root, the server runs as the `postgres` user (made by the Debian package) or a `sawbones`
#   system user; it listens on 127.0.0.1 only, on a free port, with its socket in its own directory.
# - It stops itself: a small watchdog stops it and removes its directory when the process
#   SAWBONES_PG_WATCH_PID (default: this shell, which test.sh replaces by pytest) ends.
# - Never exits the calling shell; on failure it prints why and leaves the variables unset
#   (the tests then fail in CI, skip elsewhere).
# - A SAWBONES_TEST_PG_URL already set (an external server) is used as it is.

_sawbones_pg_log() { printf 'setup_postgres: %s\n' "$*" >&2; }

_sawbones_pg_bindir() {
  local found
  if found=$(command -v pg_ctl 2>/dev/null) && [ -x "$(dirname "$found")/initdb" ]; then
    dirname "$(readlink -f "$found")"
    return 0
  fi
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -n "$found" ] && [ -x "$found/initdb" ] && [ -x "$found/pg_ctl" ]; then
    printf '%s\n' "$found"
    return 0
  fi
  return 1
}

_sawbones_pg_install() {
  local sudo=""
  if [ "${SAWBONES_PG_NO_INSTALL:-0}" = "1" ]; then
    return 1
  fi
  if [ "$(id -u)" != "0" ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo="sudo -n"
    else
      _sawbones_pg_log "PostgreSQL is not installed and installing needs root (or sudo)"
      return 1
    fi
  fi
  command -v apt-get >/dev/null 2>&1 || { _sawbones_pg_log "no apt-get to install PostgreSQL with"; return 1; }
  _sawbones_pg_log "installing Debian's postgresql (apt-get)"
  # no default cluster on port 5432: the tests start their own
  $sudo mkdir -p /etc/postgresql-common/createcluster.d 2>/dev/null || true
  if [ ! -e /etc/postgresql-common/createcluster.d/sawbones-tests.conf ]; then
    printf 'create_main_cluster = false\n' | $sudo tee /etc/postgresql-common/createcluster.d/sawbones-tests.conf \
      >/dev/null 2>&1 || true
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 || true
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql \
    >/dev/null 2>&1 || { _sawbones_pg_log "apt-get install postgresql failed"; return 1; }
}

_sawbones_pg_free_port() {
  local py
  for py in "${PWD}/.venv/bin/python" python3 python; do
    if command -v "$py" >/dev/null 2>&1; then
      "$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
      return $?
    fi
  done
  return 1
}

_sawbones_pg_start() {
  local bindir user="" dir port run="" url stop watch
  if [ -n "${SAWBONES_TEST_PG_URL:-}" ]; then
    export SAWBONES_REQUIRE_PG=1
    return 0
  fi
  if ! bindir=$(_sawbones_pg_bindir); then
    _sawbones_pg_install || return 1
    bindir=$(_sawbones_pg_bindir) || { _sawbones_pg_log "initdb/pg_ctl not found after installing"; return 1; }
  fi
  dir=$(mktemp -d "${TMPDIR:-/tmp}/sawbones-pg.XXXXXX") || return 1
  if [ "$(id -u)" = "0" ]; then
    if id -u postgres >/dev/null 2>&1; then
      user=postgres
    else
      if ! id -u sawbones >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin sawbones >/dev/null 2>&1 || true
      fi
      if id -u sawbones >/dev/null 2>&1; then user=sawbones; else user=nobody; fi
    fi
    chown "$user" "$dir" || { rm -rf "$dir"; return 1; }
    if command -v runuser >/dev/null 2>&1; then
      run="runuser -u $user --"
    else
      run="setpriv --reuid=$user --regid=$(id -g "$user") --init-groups --"
    fi
  fi
  chmod 700 "$dir"
  if ! $run "$bindir/initdb" -D "$dir/data" -U sawbones -A trust -E UTF8 --locale=C --no-sync \
      >"$dir/initdb.log" 2>&1 </dev/null; then
    _sawbones_pg_log "initdb failed: $(tail -n 3 "$dir/initdb.log" 2>/dev/null | tr '\n' ' ')"
    rm -rf "$dir"
    return 1
  fi
  port=$(_sawbones_pg_free_port) || { rm -rf "$dir"; return 1; }
  if ! $run "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-h 127.0.0.1 -p $port -k $dir -c max_connections=200" start >/dev/null 2>&1 </dev/null; then
    _sawbones_pg_log "the server did not start: $(tail -n 3 "$dir/server.log" 2>/dev/null | tr '\n' ' ')"
    rm -rf "$dir"
    return 1
  fi
  stop="$run $bindir/pg_ctl -D $dir/data -m fast -w -t 30 stop"
  if ! $run "$bindir/createdb" -h 127.0.0.1 -p "$port" -U sawbones sawbones_test >/dev/null 2>&1 </dev/null; then
    _sawbones_pg_log "createdb failed"
    $stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    return 1
  fi
  watch="${SAWBONES_PG_WATCH_PID:-$$}"
  # the watchdog: stop the cluster and remove its files once the watched process is gone
  nohup bash -c 'while kill -0 "$1" 2>/dev/null && [ -d "$2/data" ]; do sleep 1; done
                 $3 >/dev/null 2>&1 || true; rm -rf "$2"' _ "$watch" "$dir" "$stop" \
    </dev/null >/dev/null 2>&1 &
  disown $! 2>/dev/null || true
  url="postgresql+psycopg://sawbones@127.0.0.1:$port/sawbones_test"
  export SAWBONES_TEST_PG_URL="$url" SAWBONES_TEST_PG_DIR="$dir" SAWBONES_TEST_PG_STOP="$stop"
  export SAWBONES_REQUIRE_PG=1
  _sawbones_pg_log "PostgreSQL $("$bindir/pg_ctl" --version | awk '{print $3}') on 127.0.0.1:$port ($dir)"
  return 0
}

if ! _sawbones_pg_start; then
  _sawbones_pg_log "no PostgreSQL for the tests (they fail when CI or SAWBONES_REQUIRE_PG=1 is set, else skip)"
fi
unset -f _sawbones_pg_log _sawbones_pg_bindir _sawbones_pg_install _sawbones_pg_free_port _sawbones_pg_start
