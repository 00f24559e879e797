#!/usr/bin/env bash
# Local Neo4j Community 5.26 server for tests and benchmarks, without Docker.
#
#   tools/neo4j/neo4j.sh start    # build once (Maven Central), launch, wait, print NEO4J_URI=...
#   tools/neo4j/neo4j.sh stop     # SIGTERM, wait, SIGKILL if needed
#   tools/neo4j/neo4j.sh status   # exit 0 iff Bolt answers RETURN 1 with our credentials
#   tools/neo4j/neo4j.sh build    # only build/refresh tools/neo4j/target
#
# Env knobs: NEO4J_PORT (7687), NEO4J_PASSWORD (bitemporal-test), NEO4J_HEAP (1g),
# NEO4J_PAGECACHE (256m), NEO4J_RUN_DIR (/tmp/bitemporal-neo4j), NEO4J_DATA_DIR
# ($NEO4J_RUN_DIR/home), NEO4J_HTTP_PORT (0 = HTTP off), NEO4J_START_TIMEOUT (180 s),
# NEO4J_STOP_TIMEOUT (60 s), NEO4J_JAVA (java on PATH; Neo4j 5.26 wants Java 17 or 21),
# NEO4J_JAVA_OPTS (extra JVM flags), NEO4J_EXTRA_CONF ("key=value;key=value" Neo4j
# settings), NEO4J_CDS (class-data sharing archive: 1, or 0 under CI=true), NEO4J_MVN.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$HERE/../.." && pwd)"
TARGET="$HERE/target"

PORT="${NEO4J_PORT:-7687}"
PASSWORD="${NEO4J_PASSWORD:-bitemporal-test}"
HEAP="${NEO4J_HEAP:-1g}"
PAGECACHE="${NEO4J_PAGECACHE:-256m}"
RUN_DIR="${NEO4J_RUN_DIR:-/tmp/bitemporal-neo4j}"
DATA_DIR="${NEO4J_DATA_DIR:-$RUN_DIR/home}"
HTTP_PORT="${NEO4J_HTTP_PORT:-0}"
START_TIMEOUT="${NEO4J_START_TIMEOUT:-180}"
STOP_TIMEOUT="${NEO4J_STOP_TIMEOUT:-60}"
JAVA="${NEO4J_JAVA:-java}"
MVN="${NEO4J_MVN:-mvn}"
PID_FILE="$RUN_DIR/neo4j.pid"
LOG_FILE="$RUN_DIR/neo4j.log"
URI="bolt://127.0.0.1:$PORT"
JAR_NAME="neo4j-server.jar"

log() { echo "neo4j.sh: $*" >&2; }
die() {
  log "ERROR: $*"
  if [[ -f "$LOG_FILE" ]]; then
    log "--- last lines of $LOG_FILE (this start) ---"
    awk '/^=== /{n=0; delete a} {a[++n]=$0} END{for(i=(n>40?n-39:1);i<=n;i++) print a[i]}' \
      "$LOG_FILE" >&2 || true
  fi
  exit 1
}

if [[ ${#PASSWORD} -lt 8 ]]; then
  log "ERROR: NEO4J_PASSWORD must be at least 8 characters"
  exit 2
fi

PYTHON=python3
if [[ -x "$REPO_ROOT/.venv/bin/python" ]]; then
  PYTHON="$REPO_ROOT/.venv/bin/python"
fi

# probe: exit 0 iff the server at $URI runs "RETURN 1" with our credentials (neo4j
# driver), or, without the driver, answers the Bolt handshake. 3 = wrong credentials.
probe() {
  NEO4J_PASSWORD="$PASSWORD" "$PYTHON" - "$PORT" <<'PY' 2>/dev/null
import os, socket, sys
port = int(sys.argv[1])
try:
    import neo4j
    from neo4j.exceptions import AuthError
except ImportError:
    neo4j = None
if neo4j is None:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=3) as s:
            s.sendall(bytes.fromhex("6060B017") + bytes.fromhex("00000505") + bytes(12))
            sys.exit(0 if len(s.recv(4)) == 4 else 1)
    except OSError:
        sys.exit(1)
try:
    with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{port}",
                                    auth=("neo4j", os.environ["NEO4J_PASSWORD"]),
                                    connection_timeout=3, max_connection_lifetime=5) as d:
        records, _, _ = d.execute_query("RETURN 1 AS x", database_="neo4j")
        sys.exit(0 if records[0]["x"] == 1 else 1)
except AuthError:
    sys.exit(3)
except Exception:
    sys.exit(1)
PY
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; }

# Our pid, if the pid file names a live Neo4jServer JVM.
live_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "/$JAR_NAME" || return 1
  echo "$pid"
}

build_hash() {
  (cd "$HERE" && find pom.xml src -type f -print0 | LC_ALL=C sort -z | xargs -0 cat) \
    | sha256sum | cut -d' ' -f1
}

build() {
  mkdir -p "$TARGET"
  (
    flock 8
    local want
    want="$(build_hash)"
    if [[ -f "$TARGET/.build-stamp" && "$(cat "$TARGET/.build-stamp")" == "$want" ]] \
      && compgen -G "$TARGET/lib/neo4j-kernel-*.jar" >/dev/null \
      && [[ -f "$TARGET/$JAR_NAME" ]]; then
      exit 0
    fi
    command -v "$MVN" >/dev/null || { log "ERROR: maven ($MVN) not found"; exit 1; }
    log "building $TARGET with maven (the first build downloads ~170 MB from Maven Central) ..."
    local t0=$SECONDS
    rm -rf "${TARGET:?}/lib" "${TARGET:?}/classes" "${TARGET:?}/${JAR_NAME:?}" "$TARGET/.build-stamp"
    if ! "$MVN" -q -B -f "$HERE/pom.xml" package >"$TARGET/build.log" 2>&1; then
      tail -n 40 "$TARGET/build.log" >&2
      log "ERROR: maven build failed (full log: $TARGET/build.log)"
      exit 1
    fi
    echo "$want" >"$TARGET/.build-stamp"
    log "built in $((SECONDS - t0)) s"
  ) 8>"$TARGET/.build.lock"
}

# SIGTERM (clean shutdown via the JVM's hook), then SIGKILL after $STOP_TIMEOUT s.
# Returns 1 if it had to kill.
stop_pid() {
  local pid="$1" waited=0
  kill -TERM "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do
    if ((waited >= STOP_TIMEOUT * 5)); then
      log "pid $pid still alive after ${STOP_TIMEOUT}s, sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.5
      return 1
    fi
    sleep 0.2
    waited=$((waited + 1))
  done
}

# What the JVM launched by the last "start" printed: READY, FAILED or nothing yet.
launch_state() {
  [[ -f "$LOG_FILE" ]] || return 0
  awk '/^=== /{s=""} /^NEO4J_READY/{s="READY"} /^NEO4J_FAILED/{s="FAILED"} END{print s}' "$LOG_FILE"
}

wait_ready() {
  local pid="$1" deadline=$((SECONDS + START_TIMEOUT)) rc state
  while :; do
    state="$(launch_state)"
    if [[ "$state" == FAILED ]]; then
      stop_pid "$pid" || true
      rm -f "$PID_FILE"
      die "neo4j failed to start"
    fi
    # Bolt opens a moment before the password is set: only trust the probe after READY.
    if [[ "$state" == READY ]]; then
      rc=0
      probe || rc=$?
      if ((rc == 0)); then
        return 0
      elif ((rc == 3)); then
        stop_pid "$pid" || true
        rm -f "$PID_FILE"
        die "server at $URI rejected user neo4j with NEO4J_PASSWORD (was the password" \
          "changed by hand in $DATA_DIR? remove that directory or fix NEO4J_PASSWORD)"
      fi
    fi
    kill -0 "$pid" 2>/dev/null || { rm -f "$PID_FILE"; die "neo4j (pid $pid) exited during startup"; }
    if ((SECONDS >= deadline)); then
      stop_pid "$pid" || true
      rm -f "$PID_FILE"
      die "neo4j did not answer on $URI within ${START_TIMEOUT}s (stopped it)"
    fi
    sleep 0.5
  done
}

# Class-data sharing (NEO4J_CDS=1, the default except under CI=true): the first run after
# a build dumps its loaded classes into an archive when it exits on SIGTERM; "stop"
# publishes it as target/neo4j-server.jsa, which later starts map (about 2x faster JVM
# startup). The archive is tied to the build and the java binary; a stale one is unused.
cds_key() { echo "$(cat "$TARGET/.build-stamp") $("$JAVA" -version 2>&1 | tr '\n' ' ')"; }

cds_options() {
  rm -f "$RUN_DIR/cds.pending"
  # orphans of runs that were not ended by "stop"
  find "$TARGET" -maxdepth 1 -name 'neo4j-server.jsa.tmp.*' -mmin +10 -delete 2>/dev/null || true
  local dflt=1
  [[ "${CI:-}" == true ]] && dflt=0 # fresh clone each run: dumping would only cost time
  [[ "${NEO4J_CDS:-$dflt}" == 1 ]] || return 0
  local jsa="$TARGET/neo4j-server.jsa" key
  key="$(cds_key)"
  if [[ -f "$jsa" && -f "$jsa.key" && "$(cat "$jsa.key")" == "$key" ]]; then
    cds_opts=("-XX:SharedArchiveFile=$jsa")
  else
    local tmp="$TARGET/neo4j-server.jsa.tmp.$$"
    rm -f "$tmp"
    printf '%s\n%s\n' "$tmp" "$key" >"$RUN_DIR/cds.pending"
    cds_opts=("-XX:ArchiveClassesAtExit=$tmp" "-Xlog:cds*=off") # dump warnings are noise
  fi
}

cds_publish() {
  [[ -f "$RUN_DIR/cds.pending" ]] || return 0
  local tmp key
  tmp="$(sed -n 1p "$RUN_DIR/cds.pending")"
  key="$(sed -n 2p "$RUN_DIR/cds.pending")"
  rm -f "$RUN_DIR/cds.pending"
  if [[ "${1:-}" != discard && -s "$tmp" && "$key" == "$(cds_key)" ]]; then
    mv -f "$tmp" "$TARGET/neo4j-server.jsa" && echo "$key" >"$TARGET/neo4j-server.jsa.key"
  fi
  rm -f "$tmp"
}

cmd_start() {
  mkdir -p "$RUN_DIR"
  exec 9>"$RUN_DIR/.lock"
  flock 9
  local pid
  if pid="$(live_pid)"; then
    log "already running (pid $pid), waiting until it answers"
    wait_ready "$pid"
    echo "NEO4J_URI=$URI"
    return 0
  fi
  rm -f "$PID_FILE"
  if port_open; then
    die "port $PORT is already in use by another process (set NEO4J_PORT)"
  fi
  build
  mkdir -p "$DATA_DIR"
  local t0=$SECONDS cds_opts=() conf_args=() kvs=() kv
  if [[ -f "$LOG_FILE" ]] && (($(stat -c %s "$LOG_FILE") > 20000000)); then
    mv -f "$LOG_FILE" "$LOG_FILE.1"
  fi
  cds_options
  IFS=';' read -r -a kvs <<<"${NEO4J_EXTRA_CONF:-}"
  for kv in "${kvs[@]}"; do
    if [[ -n "${kv// /}" ]]; then conf_args+=(--conf "$kv"); fi
  done
  {
    echo "=== $(date -u +%FT%TZ) neo4j.sh start: port $PORT heap $HEAP pagecache $PAGECACHE home $DATA_DIR"
  } >>"$LOG_FILE"
  # shellcheck disable=SC2086
  NEO4J_PASSWORD="$PASSWORD" nohup "$JAVA" \
    -Xms64m -Xmx"$HEAP" -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError \
    -XX:-OmitStackTraceInFastThrow -Djdk.nio.maxCachedBufferSize=1024 \
    -Dio.netty.tryReflectionSetAccessible=true -Dlog4j2.disable.jmx=true \
    --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED \
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED \
    --add-opens=java.base/java.util.concurrent=ALL-UNNAMED \
    "${cds_opts[@]}" ${NEO4J_JAVA_OPTS:-} \
    -jar "$TARGET/$JAR_NAME" \
    --home "$DATA_DIR" --port "$PORT" --http-port "$HTTP_PORT" --pagecache "$PAGECACHE" \
    "${conf_args[@]}" \
    </dev/null >>"$LOG_FILE" 2>&1 9>&- &
  pid=$!
  echo "$pid" >"$PID_FILE"
  log "started pid $pid (log $LOG_FILE), waiting for $URI ..."
  wait_ready "$pid"
  log "ready in $((SECONDS - t0)) s"
  echo "NEO4J_URI=$URI"
}

cmd_stop() {
  mkdir -p "$RUN_DIR"
  exec 9>"$RUN_DIR/.lock"
  flock 9
  local pid
  if pid="$(live_pid)"; then
    log "stopping pid $pid"
    if stop_pid "$pid"; then
      cds_publish
    else
      cds_publish discard # a killed dump may be truncated
    fi
  else
    log "not running"
  fi
  rm -f "$PID_FILE"
}

cmd_status() {
  local pid rc=0
  probe || rc=$?
  if ((rc == 0)); then
    pid="$(live_pid || echo '?')"
    log "running (pid $pid), answering on $URI"
    echo "NEO4J_URI=$URI"
    return 0
  fi
  if ((rc == 3)); then
    log "$URI answers but rejects user neo4j with NEO4J_PASSWORD"
  elif pid="$(live_pid)"; then
    log "pid $pid alive but not answering on $URI"
  else
    log "not running"
  fi
  return 1
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  build) build ;;
  *)
    echo "usage: $0 {start|stop|status|build}" >&2
    exit 2
    ;;
esac
