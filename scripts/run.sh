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
# Webhooks may reach receivers on this machine or the LAN while the app listens on loopback
# alone (the default CALLWRIGHT_HOST=127.0.0.1); served to other addresses, those are refused
# unless the operator sets CALLWRIGHT_WEBHOOK_ALLOW_PRIVATE_TARGETS=true (docs/webhooks.md).
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
