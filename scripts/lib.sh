# Shared, idempotent set-up steps for scripts/run.sh and scripts/test.sh.
# Each step records a hash of its inputs under .stamps/ and is skipped when nothing changed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STAMPS="$ROOT/.stamps"
mkdir -p "$STAMPS"
PY="$ROOT/.venv/bin/python"

say() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }

hash_of() { (cd "$ROOT" && cat "$@" 2>/dev/null | sha256sum | cut -d' ' -f1); }

hash_tree() { (cd "$ROOT" && find "$@" -type f -not -path '*/node_modules/*' -print0 2>/dev/null | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1); }

fresh() { [ -f "$STAMPS/$1" ] && [ "$(cat "$STAMPS/$1")" = "$2" ]; }

stamp() { echo "$2" >"$STAMPS/$1"; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

find_python() {
  for candidate in python3.11 python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
      echo "$candidate"; return
    fi
  done
  echo "Python 3.11 is required (python3.11 not found)" >&2; exit 1
}

# ensure_python [dev]: the virtual environment with the package (and its dev extras).
ensure_python() {
  local extras="${1:-}"
  local key; key="$(hash_of pyproject.toml)-$extras"
  if [ ! -x "$PY" ]; then
    say "creating the Python virtual environment (.venv)"
    "$(find_python)" -m venv "$ROOT/.venv"
  fi
  if ! fresh python "$key"; then
    say "installing Python packages${extras:+ (with $extras extras)}"
    local target="$ROOT"
    [ -n "$extras" ] && target="$ROOT[$extras]"
    "$PY" -m pip install -q --disable-pip-version-check -e "$target" 2>&1 | grep -v 'is ignored' || true
    "$PY" -c 'import callwright' # fail loudly if the install did not work
    stamp python "$key"
  fi
}

ensure_node_modules() {
  command -v npm >/dev/null || { echo "Node.js 20 and npm are required" >&2; exit 1; }
  local key; key="$(hash_of frontend/package-lock.json)"
  if [ ! -d "$ROOT/frontend/node_modules" ] || ! fresh npm "$key"; then
    say "installing frontend packages (npm ci)"
    (cd "$ROOT/frontend" && npm ci --no-audit --no-fund --loglevel=error)
    stamp npm "$key"
  fi
}

ensure_frontend_build() {
  ensure_node_modules
  local key; key="$(hash_tree frontend/src frontend/public frontend/index.html frontend/vite.config.ts frontend/package-lock.json frontend/tsconfig.app.json)"
  if [ ! -f "$ROOT/frontend/dist/index.html" ] || ! fresh build "$key"; then
    say "building the web app (vite build)"
    (cd "$ROOT/frontend" && npm run --silent build)
    stamp build "$key"
  fi
}

ensure_chromium() {
  command -v chromium >/dev/null || apt_install chromium
}

ensure_postgres() {
  if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
    say "starting PostgreSQL"
    as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
    for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  fi
}

ensure_redis() {
  if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    say "starting Redis"
    as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log
    for _ in $(seq 1 30); do redis-cli ping >/dev/null 2>&1 && break; sleep 1; done
  fi
}

# localstripe, the local Stripe emulator card top-ups use unless real Stripe keys are set
# (docs/billing.md): started in the background unless its port (CALLWRIGHT_LOCALSTRIPE_PORT,
# 8420) already answers, and the app's webhook registered with it. Run after ensure_python.
#: openapi-python-client, in a virtual environment of its own: it needs a typer older than the
#: app's pin. The test that generates a client from /openapi.json runs it from there.
CLIENT_GENERATOR_PIN="openapi-python-client==0.29.1"
ensure_client_generator() {
  local venv="$ROOT/.venv-tools"
  if [ ! -x "$venv/bin/openapi-python-client" ] || ! fresh tools "$CLIENT_GENERATOR_PIN"; then
    say "installing $CLIENT_GENERATOR_PIN (.venv-tools)"
    "$(find_python)" -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "$CLIENT_GENERATOR_PIN" 2>&1 | grep -v 'is ignored' || true
    stamp tools "$CLIENT_GENERATOR_PIN"
  fi
}

ensure_localstripe() {
  "$ROOT/.venv/bin/callwright" localstripe
}
