#!/usr/bin/env bash
# The app as command 1 serves it (embedded default, built SPA), on its own port and a fresh
# database, with known seeded credentials: Playwright starts and stops it.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
PORT="${E2E_PORT:-8100}"
DATA="$(mktemp -d /tmp/callwright-e2e.XXXXXX)"
export CALLWRIGHT_DATA_DIR="$DATA" CALLWRIGHT_PORT="$PORT" CALLWRIGHT_APP_URL="http://127.0.0.1:$PORT"
export CALLWRIGHT_ADMIN_EMAIL="admin@callwright.app" CALLWRIGHT_ADMIN_PASSWORD="E2eAdmin123"
export CALLWRIGHT_DEMO_EMAIL="demo@callwright.app" CALLWRIGHT_DEMO_PASSWORD="E2eDemo1234"
# Sandbox calls run at twice real time, so the call e2e stays short.
export CALLWRIGHT_SANDBOX_SPEED="${CALLWRIGHT_SANDBOX_SPEED:-2}"
# Like scripts/run.sh, the app listens on loopback alone: webhook receivers on loopback are
# allowed by default (docs/webhooks.md).
# The specs call the same sandbox numbers many times (docs/compliance.md: frequency cap).
export CALLWRIGHT_MAX_CALLS_PER_NUMBER_PER_DAY=0
# A payments emulator of its own, beside the e2e port (its store in this run's data dir).
export CALLWRIGHT_LOCALSTRIPE_PORT="${CALLWRIGHT_LOCALSTRIPE_PORT:-$((PORT + 1000))}"
.venv/bin/callwright localstripe
.venv/bin/callwright migrate >/dev/null
.venv/bin/callwright seed >/dev/null
exec .venv/bin/callwright serve
