"""Seeded accounts: an admin and a demo user. Passwords come from the environment or are
generated once, kept in var/seed-credentials.json (mode 600) and printed on every run."""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.agents import service as agents
from callwright.agents.schemas import AgentIn
from callwright.config import Settings
from callwright.content.seed_posts import seed_posts
from callwright.kit.security import hash_password, verify_password
from callwright.kit.time import utcnow
from callwright.kit.validation import normalize_email
from callwright.models import LedgerEntry, User
from callwright.models.user import Role
from callwright.users import repository as users

#: The demo user's agent, made with the account (docs/lab.md: its starter suite is the lab's
#: example): a short reminder call that says who calls, discloses the AI and hands over to a
#: person when asked (on the sandbox network, to its transfer target who answers).
DEMO_AGENT: dict[str, object] = {
    "name": "Appointment reminder (demo)",
    "prompt": (
        "You are Sarah from Bright Dental. You are calling to confirm a cleaning appointment "
        "tomorrow at 3 pm. Ask if the time still works for them."
    ),
    "first_sentence": "Hi, this is Sarah from Bright Dental.",
    "voice": "joe",
    "max_duration": 2,
    "voicemail_action": "leave_message",
    "voicemail_message": "Hi, this is Sarah from Bright Dental about your cleaning tomorrow at "
    "3 pm. Please call us back if the time does not work.",
}
#: The demo agent's transfer number on the sandbox network (a transfer target who answers).
DEMO_TRANSFER = "+15005550011"


@dataclass(frozen=True)
class SeededAccount:
    role: str
    email: str
    password: str
    created: bool
    password_source: str  # "environment" or "generated"


def _credentials_file(settings: Settings) -> Path:
    return settings.data_dir / "seed-credentials.json"


def _load_generated(settings: Settings) -> dict[str, str]:
    path = _credentials_file(settings)
    if path.is_file():
        data: dict[str, str] = json.loads(path.read_text())
        return data
    return {}


def _save_generated(settings: Settings, data: dict[str, str]) -> None:
    path = _credentials_file(settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2))
    os.chmod(path, 0o600)


def generate_password() -> str:
    # Readable, 16 characters, always has upper, lower and digit (admin password policy).
    return "Cw" + secrets.token_hex(6) + str(secrets.randbelow(90) + 10)


async def ensure_account(
    session: AsyncSession,
    *,
    role: Role,
    email: str,
    name: str,
    password: str,
    balance_cents: int = 0,
) -> tuple[User, bool]:
    """Create the account, or make sure the given password opens it. Returns (user, created)."""
    email = normalize_email(email)
    user = await users.by_email(session, email)
    if user is None:
        user = await users.add(
            session,
            User(
                name=name,
                email=email,
                password_hash=hash_password(password),
                role=role.value,
                balance_cents=balance_cents,
                email_verified_at=utcnow(),
            ),
        )
        if balance_cents > 0:
            session.add(
                LedgerEntry(
                    user_id=user.id,
                    kind="top_up",
                    amount_cents=balance_cents,
                    balance_after_cents=balance_cents,
                    note="opening balance",
                )
            )
            await session.flush()
        return user, True
    if not verify_password(user.password_hash, password):
        user.password_hash = hash_password(password)
    if user.email_verified_at is None:
        user.email_verified_at = utcnow()
    user.role = role.value
    return user, False


async def demo_agent(session: AsyncSession, settings: Settings, user: User) -> None:
    """The demo user's agent, made once with the account (a deleted one stays deleted). Its
    transfer number is the sandbox's, so only on an install whose carrier is the sandbox."""
    fields = dict(DEMO_AGENT)
    if settings.carrier == "sandbox":
        fields["transfer_number"] = DEMO_TRANSFER
    await agents.create(session, user.id, AgentIn.model_validate(fields).model_dump())


async def seed(session: AsyncSession, settings: Settings) -> list[SeededAccount]:
    generated = _load_generated(settings)
    out: list[SeededAccount] = []
    specs = [
        (Role.ADMIN, settings.admin_email, settings.admin_name, settings.admin_password, 0),
        (
            Role.USER,
            settings.demo_email,
            settings.demo_name,
            settings.demo_password,
            settings.demo_balance_cents,
        ),
    ]
    for role, email, name, env_password, balance in specs:
        key = f"{role.value}:{email.lower()}"
        source = "environment" if env_password else "generated"
        password = env_password or generated.get(key) or generate_password()
        if not env_password:
            generated[key] = password
        user, created = await ensure_account(
            session, role=role, email=email, name=name, password=password, balance_cents=balance
        )
        if created and role is Role.USER:
            await demo_agent(session, settings, user)
        out.append(SeededAccount(role.value, email.lower(), password, created, source))
    _save_generated(settings, generated)
    await seed_posts(session)
    return out
