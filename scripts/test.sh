#!/usr/bin/env bash
# Command 2: install the test dependencies (Chromium included) and run every check:
# ruff, mypy, the API schema check, pytest on SQLite and on PostgreSQL (with Redis), eslint,
# tsc, Vitest, the production build and Playwright e2e against the embedded default.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
set -e
apt_install flite espeak-ng nginx-light  # nginx: the cluster test's reverse proxy
ensure_python dev
ensure_client_generator
ensure_node_modules
ensure_chromium
ensure_postgres
ensure_redis
# The pytest suite starts an emulator of its own; this one is for anything run by hand after.
ensure_localstripe
set +e

PASSED=0; FAILED=0; FAILURES=()
step() {
  local name="$1"; shift
  say "$name"
  local started=$SECONDS
  if "$@"; then
    PASSED=$((PASSED + 1)); echo "   ok: $name ($((SECONDS - started)) s)"
  else
    FAILED=$((FAILED + 1)); FAILURES+=("$name"); echo "   FAILED: $name"
  fi
}

openapi_is_current() {
  local tmp; tmp="$(mktemp)"
  .venv/bin/callwright openapi --output "$tmp" >/dev/null &&
    diff -q "$tmp" frontend/openapi.json >/dev/null &&
    (cd frontend && npx --no-install openapi-typescript openapi.json -o src/lib/api-schema.d.ts \
      --default-non-nullable false --root-types --check >/dev/null 2>&1) ||
    { echo "frontend/openapi.json or src/lib/api-schema.d.ts is stale: run 'callwright openapi' and 'npm run gen:api'"; return 1; }
}

PG_URL="postgresql+asyncpg://postgres@127.0.0.1:5432/test"
step "ruff check" .venv/bin/ruff check src tests alembic benchmarks
step "ruff format" .venv/bin/ruff format --check src tests alembic benchmarks
step "mypy (strict)" .venv/bin/mypy
step "OpenAPI schema and generated types are current" openapi_is_current
# The two pytest passes each run in two parts (tests/conftest.py CALLWRIGHT_TEST_PART):
# `calls`, the tests that place calls at real time, at the normal priority, one process each,
# the SQLite pass's then the PostgreSQL pass's (one stream of calls at a time: two at once
# starved each other's conversations on a machine half as fast as the one this layout was
# first measured on, session 20); and `rest`, everything else, on two worker processes each
# (pytest-xdist, a test file to a worker) at the lowest priority (nice 19), beside the calls, so
# that they take only the CPU the calls leave idle (they mostly wait: calls at real time). Each
# process has its own database and Redis database (tests/conftest.py _per_worker; pub/sub
# channels carry the number: realtime.server.channel): SQLite calls 10, rest 11-12; PostgreSQL
# calls 13 (database `test`), rest 14-15 (`test_rest`, `test_rest_gw1`).
# The longest conversations run in the PostgreSQL pass (tests/conftest.py SHARED_TO_POSTGRESQL).
REST=(-n 2 --dist loadfile)
PG_REST_URL="${PG_URL%/test}/test_rest"
LOGS="$(mktemp -d)"
beside() {  # a part in the background: beside NAME COMMAND...
  local name="$1"; shift
  "$@" >"$LOGS/$name.log" 2>&1 &
  echo $! >"$LOGS/$name.pid"
}
waited() {  # a background part's result: waited NAME
  wait "$(cat "$LOGS/$1.pid")"; local rc=$?
  cat "$LOGS/$1.log"
  return "$rc"
}
beside pg-rest env CALLWRIGHT_TEST_DATABASE_URL="$PG_REST_URL" CALLWRIGHT_TEST_PART=rest \
  CALLWRIGHT_TEST_REDIS_URL=redis://127.0.0.1:6379/14 nice -n 19 .venv/bin/pytest "${REST[@]}" --durations=10 -p no:cacheprovider
beside sqlite-rest env CALLWRIGHT_TEST_SIDE_BY_SIDE=1 CALLWRIGHT_TEST_PART=rest \
  CALLWRIGHT_TEST_REDIS_URL=redis://127.0.0.1:6379/11 nice -n 19 .venv/bin/pytest "${REST[@]}" --durations=10 -p no:cacheprovider
# The frontend's static checks, unit tests and production build need no database and place no
# call: they run beside the pytest passes too, at the lowest priority (nice), so that they take
# only the CPU the passes leave idle (about a core and a half). Playwright, which places calls,
# runs after the passes.
FRONT_DIR="$(mktemp -d)"
(
  cd frontend || exit 1
  front() {
    local name="$1"; shift
    "$@" >"$FRONT_DIR/$name.log" 2>&1; echo $? >"$FRONT_DIR/$name.rc"
  }
  front eslint nice -n 19 npx --no-install eslint . --max-warnings=0
  front tsc nice -n 19 npx --no-install tsc -b
  front vitest nice -n 19 npx --no-install vitest run
  front build nice -n 19 bash -c "npx --no-install vite build --logLevel warn && node scripts/bundle-size.mjs"
) &
FRONT_PID=$!
frontend_check() {
  wait "$FRONT_PID" 2>/dev/null
  cat "$FRONT_DIR/$1.log"
  return "$(cat "$FRONT_DIR/$1.rc" 2>/dev/null || echo 1)"
}
step "pytest on SQLite: the calls" env CALLWRIGHT_TEST_SIDE_BY_SIDE=1 CALLWRIGHT_TEST_PART=calls \
  CALLWRIGHT_TEST_REDIS_URL=redis://127.0.0.1:6379/10 .venv/bin/pytest --durations=15
step "pytest on PostgreSQL: the calls" env CALLWRIGHT_TEST_DATABASE_URL="$PG_URL" CALLWRIGHT_TEST_PART=calls \
  CALLWRIGHT_TEST_REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/pytest --durations=15 -p no:cacheprovider
step "pytest on SQLite: the rest (ran beside)" waited sqlite-rest
step "pytest on PostgreSQL: the rest (ran beside)" waited pg-rest
step "eslint (ran beside the pytest passes)" frontend_check eslint
step "tsc (ran beside the pytest passes)" frontend_check tsc
step "vitest (ran beside the pytest passes)" frontend_check vitest
step "vite build (ran beside the pytest passes)" frontend_check build
rm -rf "$FRONT_DIR"
# Two groups of specs, each with its own server on its own port (playwright.config.ts), one
# after the other: their calls at twice real time, two servers at once, were more than a
# machine half as fast as the first one held (session 20).
e2e_group() { (cd frontend && E2E_GROUP="$1" E2E_PORT="$2" npx --no-install playwright test); }
step "playwright e2e (Chromium), group b" e2e_group b 8200
step "playwright e2e (Chromium), group a" e2e_group a 8100
rm -rf "$LOGS"

echo
echo "$PASSED passed, $FAILED failed"
if [ "$FAILED" -gt 0 ]; then
  printf '  failed: %s\n' "${FAILURES[@]}"
  exit 1
fi
