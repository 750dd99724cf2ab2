#!/usr/bin/env bash
# The scale-out topology on one machine (docs/deployment.md):
#   scripts/cluster.sh start    PostgreSQL and Redis (this machine's, started if down), 2 API
#                               processes behind nginx (websocket upgrade included), 2 workers,
#                               2 voice processes and the sandbox network in a process of its own;
#                               worker1 alone runs the scheduler of the periodic jobs
#   scripts/cluster.sh stop     stops them all (PostgreSQL and Redis stay up)
#   scripts/cluster.sh status   what runs
#   scripts/cluster.sh restart-api
#                               a rolling restart of the API processes: one, then (once it
#                               answers its health check) the other; SIGTERM lets each drain
# Served at http://127.0.0.1:${CLUSTER_PORT:-8080}. Settings it reads (all optional):
#   CLUSTER_PORT (8080), CLUSTER_BASE_PORT (8110: API +1 +2, voice +11 +12, sandbox +21),
#   CLUSTER_DIR (var/cluster: logs, pids, nginx, recordings), CLUSTER_REDIS_URL
#   (redis://127.0.0.1:6379/1), CALLWRIGHT_DATABASE_URL (PostgreSQL database `callwright`,
#   created if missing), CLUSTER_SANDBOX_SPEED (1.0), CLUSTER_SKIP_INSTALL=1 (reuse what is
#   installed: the tests), CLUSTER_SKIP_SEED=1, CLUSTER_DRAIN_SECONDS (30: how long restart-api
#   lets an API process drain before SIGKILL).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

ACTION="${1:-start}"
DIR="${CLUSTER_DIR:-$ROOT/var/cluster}"
PORT="${CLUSTER_PORT:-8080}"
BASE="${CLUSTER_BASE_PORT:-8110}"
API_PORTS=("$((BASE + 1))" "$((BASE + 2))")
VOICE_PORTS=("$((BASE + 11))" "$((BASE + 12))")
SANDBOX_PORT="$((BASE + 21))"
REDIS_URL="${CLUSTER_REDIS_URL:-redis://127.0.0.1:6379/1}"
DATABASE_URL="${CALLWRIGHT_DATABASE_URL:-postgresql+asyncpg://postgres@127.0.0.1:5432/callwright}"
PIDS="$DIR/pids"
LOGS="$DIR/logs"

running() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# One process of the topology, in the background, its pid and log under $DIR.
launch() {
  local name="$1"; shift
  if running "$PIDS/$name.pid"; then echo "   $name already runs"; return; fi
  setsid nohup "$@" >>"$LOGS/$name.log" 2>&1 </dev/null &
  echo $! >"$PIDS/$name.pid"
}

wait_for() {
  local url="$1" name="$2"
  for _ in $(seq 1 240); do
    curl -fsS -o /dev/null "$url" 2>/dev/null && return 0
    sleep 0.5
  done
  echo "$name did not answer at $url: see $LOGS" >&2
  return 1
}

# What every role shares: the database, Redis, the secret, the recordings' folder, the URL.
cluster_env() {
  export CALLWRIGHT_APP_URL="http://127.0.0.1:$PORT"
  export CALLWRIGHT_DATABASE_URL="$DATABASE_URL"
  export CALLWRIGHT_REDIS_URL="$REDIS_URL"
  export CALLWRIGHT_JOB_BROKER_URL="$REDIS_URL"
  CALLWRIGHT_SECRET_KEY="$(cat "$DIR/secret_key")"
  export CALLWRIGHT_SECRET_KEY
  export CALLWRIGHT_DATA_DIR="$DIR/data"
  export CALLWRIGHT_EMBEDDED_WORKER=false
  # One scheduler process sends the periodic jobs (reconciler, sweeps, campaign tick): worker1
  # turns it on (start); two would send each job twice as often.
  export CALLWRIGHT_SCHEDULER=false
  export CALLWRIGHT_HOST_CALLS=false
  export CALLWRIGHT_HOST_SANDBOX=false
  export CALLWRIGHT_TRUSTED_PROXIES='["127.0.0.1/32"]'
  export CALLWRIGHT_SANDBOX_SPEED="${CLUSTER_SANDBOX_SPEED:-1.0}"
  # Behind a proxy with separate workers, private webhook targets need the opt-in (the local
  # test receivers are on loopback); the delivery log then keeps no answer body from them.
  export CALLWRIGHT_WEBHOOK_ALLOW_PRIVATE_TARGETS="${CALLWRIGHT_WEBHOOK_ALLOW_PRIVATE_TARGETS:-true}"
}

write_nginx_conf() {
  mkdir -p "$DIR/nginx/tmp"
  cat >"$DIR/nginx/nginx.conf" <<EOF
# Written by scripts/cluster.sh: the reverse proxy in front of the cluster.
worker_processes 1;
pid $DIR/nginx/nginx.pid;
error_log $LOGS/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $DIR/nginx/tmp/body;
  proxy_temp_path $DIR/nginx/tmp/proxy;
  fastcgi_temp_path $DIR/nginx/tmp/fastcgi;
  uwsgi_temp_path $DIR/nginx/tmp/uwsgi;
  scgi_temp_path $DIR/nginx/tmp/scgi;
  client_max_body_size 16m;
  map \$http_upgrade \$connection_upgrade { default upgrade; '' close; }
  # A request an API process refuses (it is restarting) goes to the other one (nginx's default
  # proxy_next_upstream: error timeout). max_fails=0: a refused process is not written off for
  # 10 s (nginx's default), or during a rolling restart the one just back would still be
  # written off when the other stops, and every request would fail with "no live upstreams".
  upstream api {
    server 127.0.0.1:${API_PORTS[0]} max_fails=0;
    server 127.0.0.1:${API_PORTS[1]} max_fails=0;
  }
  # socket.io's long-polling handshake must reach the process that holds its session.
  upstream api_sticky {
    ip_hash;
    server 127.0.0.1:${API_PORTS[0]} max_fails=0;
    server 127.0.0.1:${API_PORTS[1]} max_fails=0;
  }
  # A media stream lasts the call: the voice process with the fewest live calls takes it.
  upstream voice { least_conn; server 127.0.0.1:${VOICE_PORTS[0]}; server 127.0.0.1:${VOICE_PORTS[1]}; }
  upstream sandbox { server 127.0.0.1:$SANDBOX_PORT; }
  server {
    listen 127.0.0.1:$PORT;
    proxy_http_version 1.1;
    proxy_set_header Host \$http_host;
    proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto \$scheme;
    proxy_set_header Upgrade \$http_upgrade;
    proxy_set_header Connection \$connection_upgrade;
    proxy_read_timeout 3600s;
    proxy_buffering off;
    location /socket.io/ { proxy_pass http://api_sticky; }
    location /api/v1/media/ { proxy_pass http://voice; }
    location /sandbox/ { proxy_pass http://sandbox; }
    location / { proxy_pass http://api; }
  }
}
EOF
}

start() {
  if [ "${CLUSTER_SKIP_INSTALL:-0}" != 1 ]; then
    apt_install flite espeak-ng nginx-light
    ensure_python
    ensure_frontend_build
  fi
  ensure_postgres
  ensure_redis
  mkdir -p "$PIDS" "$LOGS" "$DIR/data"
  if [ -z "${CALLWRIGHT_DATABASE_URL:-}" ]; then
    psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'callwright'" |
      grep -q 1 || createdb -h 127.0.0.1 -U postgres callwright
  fi
  [ -f "$DIR/secret_key" ] || .venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(48))' >"$DIR/secret_key"

  cluster_env

  say "migrating the cluster's database"
  .venv/bin/callwright migrate
  .venv/bin/callwright prepare-models
  [ "${CLUSTER_SKIP_SEED:-0}" = 1 ] || .venv/bin/callwright seed
  say "starting the cluster"
  launch sandbox .venv/bin/callwright sandbox --port "$SANDBOX_PORT"
  for i in 0 1; do
    launch "voice$((i + 1))" .venv/bin/callwright voice --port "${VOICE_PORTS[$i]}"
    launch "api$((i + 1))" .venv/bin/callwright serve --port "${API_PORTS[$i]}"
  done
  launch worker1 env CALLWRIGHT_SCHEDULER=true .venv/bin/callwright worker
  launch worker2 .venv/bin/callwright worker
  write_nginx_conf
  if ! running "$DIR/nginx/nginx.pid"; then
    nginx -p "$DIR/nginx" -c "$DIR/nginx/nginx.conf"
  fi
  wait_for "http://127.0.0.1:$SANDBOX_PORT/api/v1/health" sandbox
  for i in 0 1; do
    wait_for "http://127.0.0.1:${VOICE_PORTS[$i]}/api/v1/health" "voice$((i + 1))"
    wait_for "http://127.0.0.1:${API_PORTS[$i]}/api/v1/health" "api$((i + 1))"
  done
  wait_for "http://127.0.0.1:$PORT/api/v1/health" nginx
  say "the cluster serves http://127.0.0.1:$PORT (logs in $LOGS; stop: scripts/cluster.sh stop)"
}

# Stop one process (its whole group) with SIGTERM, which lets it drain; SIGKILL after $2 s.
stop_process() {
  local file="$1" grace="$2" pid
  running "$file" || { rm -f "$file"; return 0; }
  pid="$(cat "$file")"
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 $((grace * 4))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  rm -f "$file"
}

# One API process at a time: SIGTERM (uvicorn stops accepting, finishes the requests in flight
# and closes its sockets, whose clients reconnect through nginx to the other process), start it
# again, wait for its health check, then the next. nginx sends what arrives meanwhile to the
# process that is up.
restart_api() {
  [ -f "$DIR/secret_key" ] || { echo "no cluster in $DIR: scripts/cluster.sh start" >&2; exit 1; }
  mkdir -p "$PIDS" "$LOGS"
  cluster_env
  for i in 0 1; do
    local name="api$((i + 1))"
    say "restarting $name (port ${API_PORTS[$i]})"
    stop_process "$PIDS/$name.pid" "${CLUSTER_DRAIN_SECONDS:-30}"
    launch "$name" .venv/bin/callwright serve --port "${API_PORTS[$i]}"
    wait_for "http://127.0.0.1:${API_PORTS[$i]}/api/v1/health" "$name"
  done
  say "the API processes are restarted"
}

stop() {
  if running "$DIR/nginx/nginx.pid"; then
    nginx -p "$DIR/nginx" -c "$DIR/nginx/nginx.conf" -s quit || true
  fi
  local pids=()
  for file in "$PIDS"/*.pid; do
    [ -f "$file" ] || continue
    if running "$file"; then
      kill -TERM -- "-$(cat "$file")" 2>/dev/null || kill -TERM "$(cat "$file")" 2>/dev/null || true
      pids+=("$(cat "$file")")
    fi
    rm -f "$file"
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  done
  say "the cluster is stopped"
}

status() {
  for file in "$PIDS"/*.pid "$DIR/nginx/nginx.pid"; do
    [ -f "$file" ] || continue
    if running "$file"; then state=running; else state=stopped; fi
    printf '  %-10s %-8s pid %s\n' "$(basename "$file" .pid)" "$state" "$(cat "$file")"
  done
}

case "$ACTION" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  restart-api) restart_api ;;
  *) echo "usage: scripts/cluster.sh start|stop|status|restart-api" >&2; exit 2 ;;
esac
