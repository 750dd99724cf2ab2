"""Settings, read from the environment and `.env` (see docs/configuration.md)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

#: Values that must never reach production.
DEV_SECRET_KEY = "dev-insecure-secret-key-change-me"  # noqa: S105

REPO_ROOT = Path(__file__).resolve().parents[2]


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
    secret_key: str = DEV_SECRET_KEY

    data_dir: Path = REPO_ROOT / "var"
    database_url: str = ""
    redis_url: str = ""
    #: Taskiq broker for jobs: empty runs them in this process (in-memory broker); a Redis URL
    #: queues them for `callwright worker` processes.
    job_broker_url: str = ""
    #: Whether the API process also receives queued jobs and runs the reconciler (turn off when
    #: separate `callwright worker` processes do it).
    embedded_worker: bool = True
    frontend_dist: Path = REPO_ROOT / "frontend" / "dist"
    #: Extra origins allowed for CORS and socket.io (the app's own origin is always allowed).
    cors_origins: list[str] = Field(default_factory=list)

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
    twilio_account_sid: str = ""
    twilio_auth_token: str = ""
    twilio_from_number: str = ""
    #: When the callee's voicemail answers: leave a short message, or hang up.
    voicemail_action: Literal["message", "hangup"] = "message"
    #: Load the speech models at start-up (off in tests that place no calls).
    warm_up_voice: bool = True
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

    @model_validator(mode="after")
    def _derive(self) -> Settings:
        if not self.database_url:
            self.database_url = f"sqlite+aiosqlite:///{self.data_dir / 'callwright.db'}"
        self.app_url = self.app_url.rstrip("/")
        if self.env == "production":
            problems = []
            if self.secret_key == DEV_SECRET_KEY or len(self.secret_key) < 32:
                problems.append(
                    "CALLWRIGHT_SECRET_KEY must be set to a random value of 32+ characters"
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
                raise ValueError("refusing to start in production: " + "; ".join(problems))
        return self

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
    def secure_cookies(self) -> bool:
        return self.app_url.startswith("https://")

    @property
    def from_number(self) -> str:
        return self.twilio_from_number if self.carrier == "twilio" else self.sandbox_from_number

    @property
    def allowed_origins(self) -> list[str]:
        return [self.app_url, *self.cors_origins]


@lru_cache
def get_settings() -> Settings:
    return Settings()
