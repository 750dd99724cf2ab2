"""Settings, read from the environment and `.env` (see docs/configuration.md)."""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
import tempfile
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import phonenumbers
from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

#: A key published in earlier versions' defaults: refused everywhere.
DEV_SECRET_KEY = "dev-insecure-secret-key-change-me"  # noqa: S105
#: Where an install without CALLWRIGHT_SECRET_KEY keeps the key generated for it (in data_dir).
SECRET_FILE = "secret_key"  # noqa: S105 - a file name
SECRET_MIN_LENGTH = 32
#: A key with fewer distinct characters than this is a pattern, not a secret ("x" * 40).
SECRET_MIN_DISTINCT = 10

#: Stripe's own API and Stripe.js; any other API base is taken for the local emulator.
STRIPE_API = "https://api.stripe.com"
STRIPE_JS = "https://js.stripe.com/v3/"
#: The keys the local emulator (localstripe) is used with: it accepts any `sk_`/`pk_` key.
LOCALSTRIPE_SECRET_KEY = "sk_test_localstripe"  # noqa: S105 - not a secret: emulator only
LOCALSTRIPE_PUBLISHABLE_KEY = "pk_test_localstripe"

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

REPO_ROOT = Path(__file__).resolve().parents[2]


#: A daily window, HH:MM-HH:MM (the end may be 24:00).
_WINDOW_RE = r"^([01][0-9]|2[0-3]):[0-5][0-9]-(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="CALLWRIGHT_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
    )

    env: Literal["development", "test", "production"] = "development"
    #: Public base URL of the app; links in e-mails are built from it, never from the Host header.
    app_url: str = "http://127.0.0.1:8000"
    host: str = "127.0.0.1"
    port: int = 8000
    #: Signs sessions' XSRF tokens, e-mail links and the sandbox's credentials. Unset outside
    #: production: generated once per install into `data_dir/secret_key` (owner-only) and reused.
    secret_key: str = ""

    data_dir: Path = REPO_ROOT / "var"
    database_url: str = ""
    redis_url: str = ""
    #: Taskiq broker for jobs: empty runs them in this process (in-memory broker); a Redis URL
    #: queues them for `callwright worker` processes.
    job_broker_url: str = ""
    #: Whether the API process also receives queued jobs (turn off when separate `callwright
    #: worker` processes do it).
    embedded_worker: bool = True
    #: Whether a receiving role (the API process with the embedded worker, `callwright worker`)
    #: also runs the scheduler that sends the periodic jobs (the reconciler, the due-call and
    #: webhook sweeps, the campaign tick). A cluster turns it on in exactly one process.
    scheduler: bool = True
    frontend_dist: Path = REPO_ROOT / "frontend" / "dist"

    # The calls' recordings (docs/deployment.md#recordings). With no bucket they are files in
    # `data_dir/recordings`; with one, objects in S3-compatible storage, read by every process.
    #: The bucket (it must exist); empty: the local folder.
    s3_bucket: str = ""
    #: The storage's address for S3-compatible services other than AWS (MinIO, R2, ...);
    #: empty: AWS S3 itself.
    s3_endpoint_url: str = ""
    #: The bucket's region (AWS: us-east-1, eu-west-1, ...); empty: boto3's default.
    s3_region: str = ""
    #: The access key; empty (with the secret): boto3's own chain (AWS_* variables, an
    #: instance's or a pod's role).
    s3_access_key_id: str = ""
    s3_secret_access_key: str = ""
    #: Prepended to each object's name (`recordings/{call id}.mp3`); empty: the bucket's root.
    s3_prefix: str = "recordings/"
    #: Extra origins allowed for CORS and socket.io (the app's own origin is always allowed).
    cors_origins: list[str] = Field(default_factory=list)
    #: Reverse proxies (IPs or CIDRs) whose X-Forwarded-For names the client; empty: the socket
    #: peer is the client and the header is ignored.
    trusted_proxies: list[str] = Field(default_factory=list)
    #: The HttpOnly cookie that carries the sign-in token for the browser (API, audio, sockets).
    session_cookie: str = "callwright_session"

    #: The most bytes a request body may have (413 beyond it), checked before it is read.
    max_body_bytes: int = Field(1024 * 1024, ge=1024)
    #: The same for the routes that take big documents (the admin's blog posts).
    max_upload_body_bytes: int = Field(4 * 1024 * 1024, ge=1024)

    # Auth
    token_ttl_minutes: int = 60 * 24 * 7
    verification_ttl_minutes: int = 60 * 24
    password_reset_ttl_minutes: int = 60
    login_max_failures_per_account: int = 5
    login_failure_window_seconds: int = 15 * 60
    login_max_attempts_per_ip: int = 30
    login_ip_window_seconds: int = 60
    #: Resend-verification and forgot-password requests per e-mail address and window.
    mail_requests_per_address: int = 3
    mail_request_window_seconds: int = 15 * 60
    #: What a new account gets once its e-mail address is verified (or Google vouches for it),
    #: in cents, so its first call works before it adds funds; 0 gives none.
    starter_credit_cents: int = Field(100, ge=0, le=100_000)

    # Google sign-in
    google_client_id: str = ""
    google_client_secret: str = ""
    google_metadata_url: str = "https://accounts.google.com/.well-known/openid-configuration"

    # E-mail
    smtp_host: str = ""
    smtp_port: int = 587
    smtp_username: str = ""
    smtp_password: str = ""
    smtp_starttls: bool = True
    mail_from: str = "Callwright <no-reply@callwright.app>"

    # Calls
    carrier: Literal["sandbox", "twilio"] = "sandbox"
    #: The caller ID of sandbox calls.
    sandbox_from_number: str = "+18885550100"
    #: Sandbox call speed: 1.0 is real time; tests run faster.
    sandbox_speed: float = 1.0
    #: Whether this API process serves the carriers' media websockets and runs the calls'
    #: pipelines (off when `callwright voice` processes do it: docs/deployment.md).
    host_calls: bool = True
    #: Whether this API process serves the sandbox network (off when `callwright sandbox` does).
    host_sandbox: bool = True
    #: Base URL the carrier connects a call's media stream to (the voice processes, or a proxy
    #: in front of them); empty: `app_url`.
    media_url: str = ""
    #: Base URL of the sandbox network's Twilio-style REST API; empty: `app_url`.
    sandbox_url: str = ""
    #: On a Twilio install, the base URL the sandbox network opens a lab call's media stream
    #: to; empty: the app itself while it hosts calls, else `media_url`.
    lab_media_url: str = ""
    twilio_account_sid: str = ""
    #: Twilio's REST API (another address only for a Twilio-compatible network: the tests
    #: point it at the sandbox's Twilio dialect).
    twilio_api_url: str = "https://api.twilio.com"
    twilio_auth_token: str = ""
    twilio_from_number: str = ""
    #: When the callee's voicemail answers: leave a short message, or hang up.
    voicemail_action: Literal["message", "hangup"] = "message"
    #: Load the speech models at start-up (off in tests that place no calls).
    warm_up_voice: bool = True
    #: Sentences the agent said, kept so a sentence said again (an opener, a disclosure, a
    #: goodbye) is not synthesised again: the most audio kept per voice process, MB; 0: none.
    speech_cache_mb: int = Field(default=32, ge=0)
    # An OpenAI-compatible chat endpoint for the agent's brain; without it, the offline policy.
    llm_base_url: str = Field(
        default="", validation_alias=AliasChoices("CALLWRIGHT_LLM_BASE_URL", "LLM_BASE_URL")
    )
    llm_api_key: str = Field(
        default="", validation_alias=AliasChoices("CALLWRIGHT_LLM_API_KEY", "LLM_API_KEY")
    )
    llm_model: str = Field(
        default="gpt-4o-mini", validation_alias=AliasChoices("CALLWRIGHT_LLM_MODEL", "LLM_MODEL")
    )

    # Outbound webhooks (docs/webhooks.md)
    #: Webhook targets on private, loopback, link-local and other non-public addresses
    #: (developers/ssrf.private_targets). Unset: allowed while the server listens on loopback
    #: alone (`host`), behind no proxy and with its jobs in-process; refused otherwise, after
    #: DNS resolution and on every redirect (server-side request forgery). true: allowed
    #: anyway, and the delivery log keeps no answer body from them. false: always refused.
    webhook_allow_private_targets: bool | None = None
    # The periodic jobs' intervals, in the process that runs the scheduler (`scheduler`,
    # kit/schedule.py): whole seconds (rounded up, at least 1); 0 turns that job off (the
    # tests drive it themselves).
    #: How often the webhook deliveries that are due are re-queued (retries, and deliveries a
    #: stopped worker left behind).
    webhook_sweep_seconds: float = Field(5.0, ge=0)
    #: How often the campaign dialler runs (it also runs when a campaign's call ends; 0: only
    #: then).
    campaign_tick_seconds: float = Field(3.0, ge=0)
    #: How often the reconciler runs: calls whose end never arrived, and calls whose voice
    #: process died mid-call.
    reconcile_seconds: float = Field(15.0, ge=0)
    #: How often the scheduled calls whose time has come are dialled (and a dial job that a
    #: stopped worker lost is sent again).
    dial_due_sweep_seconds: float = Field(5.0, ge=0)
    #: Each webhook attempt's time limit (connect, send, answer).
    webhook_timeout_seconds: float = Field(10.0, gt=0)
    #: Waits before each retry of a failed delivery (jittered by +-20 %); when they are used
    #: up the delivery fails. The default retries for about a day.
    webhook_retry_seconds: list[float] = Field(
        default_factory=lambda: [
            5.0,
            30.0,
            120.0,
            600.0,
            1800.0,
            3600.0,
            7200.0,
            14400.0,
            28800.0,
            28800.0,
        ]
    )

    # Card top-ups through Stripe (docs/billing.md). With none of the keys set, payments run on
    # localstripe, a local Stripe emulator that the run and test commands start.
    #: Stripe's API address. Empty: the local emulator (http://127.0.0.1:<localstripe_port>).
    #: Set https://api.stripe.com with real keys for real payments.
    stripe_api_base: str = ""
    #: The secret key (sk_...). Empty: a local test key that only the emulator accepts.
    stripe_secret_key: str = ""
    #: The publishable key the browser uses (pk_...). Empty: a local test key.
    stripe_publishable_key: str = ""
    #: The webhook signing secret (whsec_...). Empty with the emulator: derived from the secret
    #: key and registered with the emulator by `callwright localstripe --ensure`.
    stripe_webhook_secret: str = ""
    #: Where the browser loads Stripe.js. Empty: https://js.stripe.com/v3/ for real Stripe, the
    #: emulator's stand-in (<api base>/js.stripe.com/v3/) otherwise.
    stripe_js_url: str = ""
    #: The port the local emulator listens on (loopback only).
    localstripe_port: int = Field(8420, ge=1, le=65535)
    #: The smallest and largest card top-up, in whole dollars.
    top_up_min: int = Field(5, ge=1, le=1_000_000)
    top_up_max: int = Field(1000, ge=1, le=1_000_000)
    #: Auto-recharge charges a user's saved card at most once in this many hours.
    auto_recharge_period_hours: int = Field(24, ge=1, le=24 * 31)

    # Calling lawfully (docs/compliance.md)
    #: Calls ring only inside this daily window, in the callee's local time (HH:MM-HH:MM; the
    #: end is not in it). "00:00-24:00" turns the rule off (the tests and e2e do).
    calling_hours: str = Field("08:00-21:00", pattern=_WINDOW_RE)
    #: The zone calling hours use for a number that does not say where it rings (a mobile or
    #: non-geographic range that only names its country, an unassigned one).
    default_timezone: str = "America/New_York"
    #: A user calls one number at most this many times in any 24 hours (0: no cap).
    max_calls_per_number_per_day: int = Field(3, ge=0)
    #: The agent lab (docs/lab.md): how many scenarios a process calls at once (across its
    #: runs), and how many lab calls a user's runs may place in any 24 hours.
    lab_concurrency: int = Field(8, ge=1, le=50)
    lab_calls_per_day: int = Field(200, ge=0, le=100_000)
    #: The country (ISO 3166) a number written without "+" is read in ("(555) 123-0000"): the
    #: Send Call and test-call numbers, the API's and a campaign's contact numbers.
    default_region: str = Field("US", pattern=r"^[A-Z]{2}$")

    # The public free test call and forms (abuse limits; 429 beyond them)
    test_call_per_ip_per_hour: int = 3
    test_call_per_number_per_day: int = 2
    test_call_daily_cap: int = 200
    #: A test call's length limit, in minutes.
    test_call_max_minutes: int = 2
    forms_per_ip_per_hour: int = 10

    # Seeded accounts (generated and printed when unset)
    admin_email: str = "admin@callwright.app"
    admin_password: str = ""
    admin_name: str = "Admin"
    demo_email: str = "demo@callwright.app"
    demo_password: str = ""
    demo_name: str = "Demo User"
    demo_balance_cents: int = 2000

    @field_validator("calling_hours")
    @classmethod
    def _window(cls, value: str) -> str:
        start, end = value.split("-")
        if end != "24:00" and end <= start:  # HH:MM strings order as times do
            raise ValueError(f"the calling window {value!r} must end after it starts")
        return value

    @field_validator("default_timezone")
    @classmethod
    def _zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"{value!r} is not a known time zone (e.g. America/New_York)"
            ) from None
        return value

    @field_validator("sandbox_from_number", "twilio_from_number")
    @classmethod
    def _caller_id(cls, value: str) -> str:
        """A caller ID in E.164, like every number the app handles (kit.phone reads the
        requests' numbers; kit imports this module, so the library is called here directly)."""
        if not value.strip():
            return ""
        try:
            number = phonenumbers.parse(value.strip(), None)
        except phonenumbers.NumberParseException:
            number = None
        if number is None or not phonenumbers.is_possible_number(number):
            raise ValueError(f"{value!r} is not a phone number in international form (+1...)")
        return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)

    @model_validator(mode="after")
    def _derive(self) -> Settings:
        if not self.database_url:
            self.database_url = f"sqlite+aiosqlite:///{self.data_dir / 'callwright.db'}"
        self.app_url = self.app_url.rstrip("/")
        if not self.secret_key and self.env != "production":
            self.secret_key = load_or_create_secret(self.data_dir / SECRET_FILE)
        problems = []
        try:
            parse_networks(self.trusted_proxies)
        except ValueError as exc:
            problems.append(f"CALLWRIGHT_TRUSTED_PROXIES: {exc}")
        if not _strong(self.secret_key):
            problems.append(
                "CALLWRIGHT_SECRET_KEY must be a random value of 32+ characters "
                "(unset it outside production to have one generated)"
            )
        self.s3_prefix = self.s3_prefix.strip("/") + "/" if self.s3_prefix.strip("/") else ""
        if bool(self.s3_access_key_id) != bool(self.s3_secret_access_key):
            problems.append(
                "CALLWRIGHT_S3_ACCESS_KEY_ID and CALLWRIGHT_S3_SECRET_ACCESS_KEY go together"
            )
        if self.top_up_max < self.top_up_min:
            problems.append("CALLWRIGHT_TOP_UP_MAX must not be below CALLWRIGHT_TOP_UP_MIN")
        self._derive_stripe()
        if self.env == "production":
            if self.stripe_real and not (
                self.stripe_secret_key.startswith(("sk_", "rk_"))
                and self.stripe_publishable_key.startswith("pk_")
                and self.stripe_webhook_secret.startswith("whsec_")
            ):
                problems.append(
                    "with real Stripe, CALLWRIGHT_STRIPE_SECRET_KEY, "
                    "CALLWRIGHT_STRIPE_PUBLISHABLE_KEY and CALLWRIGHT_STRIPE_WEBHOOK_SECRET "
                    "must all be set"
                )
            if not self.smtp_host:
                problems.append("CALLWRIGHT_SMTP_HOST must be set (users need their e-mails)")
            if self.carrier == "twilio" and not (
                self.twilio_account_sid and self.twilio_auth_token
            ):
                problems.append(
                    "CALLWRIGHT_TWILIO_ACCOUNT_SID and CALLWRIGHT_TWILIO_AUTH_TOKEN are required"
                )
        if problems:
            raise ValueError(f"refusing to start ({self.env}): " + "; ".join(problems))
        return self

    def _derive_stripe(self) -> None:
        """Fill the Stripe settings left empty: real Stripe when a live or test key of Stripe's
        own is given without an API base, the local emulator otherwise."""
        real_key = self.stripe_secret_key and self.stripe_secret_key != LOCALSTRIPE_SECRET_KEY
        if not self.stripe_api_base:
            self.stripe_api_base = (
                STRIPE_API if real_key else f"http://127.0.0.1:{self.localstripe_port}"
            )
        self.stripe_api_base = self.stripe_api_base.rstrip("/")
        self.stripe_secret_key = self.stripe_secret_key or LOCALSTRIPE_SECRET_KEY
        self.stripe_publishable_key = self.stripe_publishable_key or LOCALSTRIPE_PUBLISHABLE_KEY
        if not self.stripe_js_url:
            self.stripe_js_url = (
                STRIPE_JS if self.stripe_real else f"{self.stripe_api_base}/js.stripe.com/v3/"
            )
        if not self.stripe_webhook_secret and not self.stripe_real:
            digest = hmac.new(self.secret_key.encode(), b"localstripe-webhook", "sha256")
            self.stripe_webhook_secret = "whsec_" + digest.hexdigest()[:32]

    @property
    def stripe_real(self) -> bool:
        """Whether payments go to Stripe itself (not the local emulator)."""
        return self.stripe_api_base == STRIPE_API

    @property
    def stripe_webhook_url(self) -> str:
        return f"{self.app_url}/api/v1/billing/stripe-webhook"

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def google_enabled(self) -> bool:
        return bool(self.google_client_id and self.google_client_secret)

    @property
    def smtp_enabled(self) -> bool:
        return bool(self.smtp_host)

    @property
    def media_base_url(self) -> str:
        """Where carriers send calls' media: `media_url`, else the app itself."""
        return (self.media_url or self.app_url).rstrip("/")

    @property
    def lab_media_base_url(self) -> str:
        """Where the sandbox network sends a lab call's media on a Twilio install (on the
        sandbox install every call's media goes to `media_base_url`): `lab_media_url`, else
        the app's own media endpoint while it hosts calls (`media_url` is then Twilio's way
        in, which may not lead back here), else the voice processes at `media_url`."""
        if self.lab_media_url:
            return self.lab_media_url.rstrip("/")
        return self.app_url.rstrip("/") if self.host_calls else self.media_base_url

    @property
    def sandbox_base_url(self) -> str:
        """Where the sandbox network's REST API is: `sandbox_url`, else the app itself."""
        return (self.sandbox_url or self.app_url).rstrip("/")

    @property
    def secure_cookies(self) -> bool:
        return self.app_url.startswith("https://")

    @property
    def from_number(self) -> str:
        return self.twilio_from_number if self.carrier == "twilio" else self.sandbox_from_number

    @property
    def allowed_origins(self) -> list[str]:
        return [self.app_url, *self.cors_origins]


def _strong(key: str) -> bool:
    return (
        key != DEV_SECRET_KEY
        and len(key) >= SECRET_MIN_LENGTH
        and len(set(key)) >= SECRET_MIN_DISTINCT
    )


def load_or_create_secret(path: Path) -> str:
    """The install's own secret: read from `path`, or created there once (random, owner-only
    permissions). The key is written to a private temporary file and linked into place, so two
    processes starting at once agree on one complete key. A file others could read is tightened
    to owner-only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".secret-")  # mode 0600
        with os.fdopen(fd, "w") as file:
            file.write(secrets.token_urlsafe(48) + "\n")
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # another process won; use its key
        finally:
            os.unlink(temporary)
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    kept = path.read_text().strip()
    if not _strong(kept):
        raise ValueError(f"{path} does not hold a usable secret; delete it to generate one")
    return kept


def parse_networks(entries: Iterable[str]) -> tuple[IPNetwork, ...]:
    """IPs and CIDRs ("10.0.0.5", "10.0.0.0/8", "::1"); ValueError names a bad entry."""
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise ValueError(f"not an IP address or CIDR range: {entry!r}") from None
    return tuple(networks)


@lru_cache
def get_settings() -> Settings:
    return Settings()
