#!/usr/bin/env bash
# Command 1: install everything, migrate the SQLite database, seed the admin and demo accounts,
# and serve Callwright at http://127.0.0.1:8000 (the embedded default: one process, SQLite,
# sandbox carrier, offline engines). Safe to run again: it reuses what is installed.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

apt_install flite espeak-ng  # offline voices for the agent and the sandbox callee
ensure_python
ensure_frontend_build
# One local machine: webhook receivers on loopback or the LAN are the point (a server others
# can reach leaves CALLWRIGHT_WEBHOOK_ALLOW_PRIVATE_TARGETS off; docs/webhooks.md).
export CALLWRIGHT_WEBHOOK_ALLOW_PRIVATE_TARGETS="${CALLWRIGHT_WEBHOOK_ALLOW_PRIVATE_TARGETS:-true}"
say "migrating the database"
.venv/bin/callwright migrate
say "preparing the speech models"
.venv/bin/callwright prepare-models
say "starting the payments emulator (localstripe)"
ensure_localstripe
say "seeding accounts"
.venv/bin/callwright seed
say "serving on ${CALLWRIGHT_APP_URL:-http://127.0.0.1:8000} (Ctrl+C to stop)"
exec .venv/bin/callwright serve
