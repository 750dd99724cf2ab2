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
# `rest`, everything but the calls at real time, first, on two worker processes each
# (pytest-xdist, a test file to a worker), both passes at once; then `calls`, the tests that
# place calls at real time, one process each, the SQLite pass's then the PostgreSQL pass's, with
# only the frontend's checks beside them, at the idle priority (SCHED_IDLE: they get a CPU only
# when nothing else wants it). Session 20 ran the rest beside the calls at nice 19: on a machine
# half as fast as the first one, two to four conversations a run still went wrong (an opening
# late, a callee's line cut, a goodbye lost), a different few each time; seven processes and
# their PostgreSQL server's work, at the normal priority, kept the calls short of CPU at the
# moments they needed it, and Vitest, starved, timed out.
# Each process has its own database and Redis database (tests/conftest.py _per_worker; pub/sub
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
  CALLWRIGHT_TEST_REDIS_URL=redis://127.0.0.1:6379/14 .venv/bin/pytest "${REST[@]}" --durations=10 -p no:cacheprovider
beside sqlite-rest env CALLWRIGHT_TEST_SIDE_BY_SIDE=1 CALLWRIGHT_TEST_PART=rest \
  CALLWRIGHT_TEST_REDIS_URL=redis://127.0.0.1:6379/11 .venv/bin/pytest "${REST[@]}" --durations=10 -p no:cacheprovider
step "pytest on SQLite: the rest" waited sqlite-rest
step "pytest on PostgreSQL: the rest" waited pg-rest
# The frontend's static checks, unit tests and production build need no database and place no
# call: they run beside the calls, one after the other, at the idle priority. Playwright, which
# places calls, runs after the calls.
FRONT_DIR="$(mktemp -d)"
(
  cd frontend || exit 1
  front() {
    local name="$1"; shift
    "$@" >"$FRONT_DIR/$name.log" 2>&1; echo $? >"$FRONT_DIR/$name.rc"
  }
  front eslint chrt --idle 0 npx --no-install eslint . --max-warnings=0
  front tsc chrt --idle 0 npx --no-install tsc -b
  front vitest chrt --idle 0 npx --no-install vitest run
  front build chrt --idle 0 bash -c "npx --no-install vite build --logLevel warn && node scripts/bundle-size.mjs"
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
step "eslint (ran beside the calls)" frontend_check eslint
step "tsc (ran beside the calls)" frontend_check tsc
step "vitest (ran beside the calls)" frontend_check vitest
step "vite build (ran beside the calls)" frontend_check build
rm -rf "$FRONT_DIR"
# Eight calls at once (the `alone` mark: the lab's demo suite, issue 32), with the machine to
# itself: after the frontend's checks, before the e2e servers start. Eight conversations on two
# cores are what the machine holds, not more: a moment of a neighbour's load can cut one line
# (docs/lab.md, "Eight at once"), so a failed run is run once more, said in the output; a
# failure that repeats fails the step.
alone_part() {
  local run=(env CALLWRIGHT_TEST_PART=alone CALLWRIGHT_TEST_REDIS_URL=redis://127.0.0.1:6379/10
    .venv/bin/pytest -p no:cacheprovider)
  "${run[@]}" && return 0
  echo "   the eight calls at once failed once (above); running them again"
  "${run[@]}"
}
step "pytest on SQLite: eight lab calls at once" alone_part
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
