"""Account rules: registration, e-mail verification, login, password reset and change."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum
from urllib.parse import urlencode

from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from callwright.auth import repository, tokens
from callwright.auth.credits import StarterCredit
from callwright.config import Settings
from callwright.kit.errors import AppError, ValidationFailed
from callwright.kit.ratelimit import RateLimiter
from callwright.kit.security import (
    hash_password_async,
    needs_rehash,
    random_token,
    sha256_hex,
    signed_url,
    valid_url_signature,
    verify_password_async,
)
from callwright.kit.time import utcnow
from callwright.mail.service import Mailer
from callwright.models import PasswordResetToken, User
from callwright.models.user import Role
from callwright.realtime.server import SocketControl
from callwright.users import repository as users

VERIFY_PATH = "/api/v1/email/verify"
INVALID_CREDENTIALS = "These credentials do not match our records."
EMAIL_NOT_VERIFIED = "Email not verified. Please check your inbox for the verification link."
RESET_INVALID = "This password reset link is invalid or has expired."
EMAIL_TAKEN = "The email has already been taken."


class VerifyOutcome(StrEnum):
    VERIFIED = "verified"
    USER_NOT_FOUND = "user_not_found"
    INVALID_LINK = "invalid_link"
    INVALID_SIGNATURE = "invalid_signature"
    ALREADY_VERIFIED = "already_verified"
    VERIFICATION_FAILED = "verification_failed"


@dataclass(frozen=True)
class LoginResult:
    token: str
    user: User


def _email_hash(email: str) -> str:
    """Binds a verification link to the address it was sent to (Laravel uses sha1 too)."""
    return hashlib.sha1(email.lower().encode(), usedforsecurity=False).hexdigest()


def verification_url(settings: Settings, user: User) -> str:
    expires = int(time.time()) + settings.verification_ttl_minutes * 60
    path = f"{VERIFY_PATH}/{user.id}/{_email_hash(user.email)}"
    signed = signed_url(settings.secret_key, path, {"expires": str(expires)})
    return settings.app_url + signed


async def mark_verified(
    session: AsyncSession, billing: StarterCredit, settings: Settings, user: User
) -> bool:
    """Mark the account's e-mail address verified and grant the starter credit. One conditional
    UPDATE: of requests verifying the same account at once (two clicks on the link), one turns
    it verified and credits it; the others find it verified. An address is never unverified
    again, so the credit comes once per user. Returns whether this call verified it."""
    now = utcnow()
    if not await repository.verify_once(session, user.id, now):
        return False
    set_committed_value(user, "email_verified_at", now)
    await billing.starter_credit(session, user.id, settings.starter_credit_cents)
    return True


async def send_verification(session: AsyncSession, mailer: Mailer, user: User) -> None:
    await mailer.send_link_email(
        session,
        to=user.email,
        kind="verify-email",
        subject="Verify your Callwright e-mail address",
        greeting=f"Hello {user.name},",
        intro="Please confirm your e-mail address to start using Callwright.",
        action="Verify e-mail address",
        link=verification_url(mailer.settings, user),
        outro=(
            f"The link expires in {mailer.settings.verification_ttl_minutes // 60} hours. "
            "If you did not create an account, you can ignore this message."
        ),
    )


async def register(
    session: AsyncSession, mailer: Mailer, *, name: str, email: str, password: str
) -> User:
    if await users.by_email(session, email) is not None:
        raise ValidationFailed({"email": [EMAIL_TAKEN]})
    try:
        user = await users.add(
            session,
            User(
                name=name,
                email=email,
                password_hash=await hash_password_async(password),
                role=Role.USER.value,
            ),
        )
    except users.EmailTaken:  # registered by a concurrent request since the look-up above
        raise ValidationFailed({"email": [EMAIL_TAKEN]}) from None
    await send_verification(session, mailer, user)
    return user


async def verify_email(
    session: AsyncSession,
    settings: Settings,
    billing: StarterCredit,
    *,
    user_id: int,
    email_hash: str,
    expires: str,
    signature: str,
) -> VerifyOutcome:
    path = f"{VERIFY_PATH}/{user_id}/{email_hash}"
    if not valid_url_signature(settings.secret_key, path, {"expires": expires}, signature):
        return VerifyOutcome.INVALID_SIGNATURE
    if not expires.isdigit() or int(expires) < time.time():
        return VerifyOutcome.INVALID_SIGNATURE
    user = await users.get(session, user_id)
    if user is None:
        return VerifyOutcome.USER_NOT_FOUND
    if email_hash != _email_hash(user.email):
        return VerifyOutcome.INVALID_LINK
    if user.email_verified_at is not None or not await mark_verified(
        session, billing, settings, user
    ):
        return VerifyOutcome.ALREADY_VERIFIED
    return VerifyOutcome.VERIFIED


async def _throttle_mail(
    limiter: RateLimiter, settings: Settings, purpose: str, email: str
) -> None:
    await limiter.hit(
        f"mail-{purpose}",
        email,
        settings.mail_requests_per_address,
        settings.mail_request_window_seconds,
    )


async def resend_verification(
    session: AsyncSession, mailer: Mailer, limiter: RateLimiter, email: str
) -> None:
    """Sends a fresh link to an unverified account. Answers the same for unknown addresses."""
    await _throttle_mail(limiter, mailer.settings, "verify", email)
    user = await users.by_email(session, email)
    if user is not None and user.email_verified_at is None:
        await send_verification(session, mailer, user)


async def login(
    session: AsyncSession,
    settings: Settings,
    limiter: RateLimiter,
    *,
    email: str,
    password: str,
    ip: str,
) -> LoginResult:
    # Every attempt counts against the IP and, reserved before its password is checked, against
    # the account: a burst sent at once gets at most the account's limit of passwords checked,
    # the rest are refused unchecked. A success clears the account's count. Neither lock is
    # permanent: both are moving windows.
    await limiter.hit(
        "login-ip", ip, settings.login_max_attempts_per_ip, settings.login_ip_window_seconds
    )
    account_limit = (settings.login_max_failures_per_account, settings.login_failure_window_seconds)
    await limiter.hit("login-account", email, *account_limit)
    user = await users.by_email(session, email)
    if (
        not await verify_password_async(user.password_hash if user else None, password)
        or user is None
    ):
        raise ValidationFailed({"email": [INVALID_CREDENTIALS]})
    # The password is right: what was counted against the account ends here.
    await limiter.clear("login-account", email, *account_limit)
    if user.email_verified_at is None:
        raise AppError(EMAIL_NOT_VERIFIED, 403)
    if user.password_hash and needs_rehash(user.password_hash):
        user.password_hash = await hash_password_async(password)
    token = await tokens.issue(session, user.id, settings.token_ttl_minutes)
    return LoginResult(token=token, user=user)


async def forgot_password(
    session: AsyncSession, mailer: Mailer, limiter: RateLimiter, email: str
) -> None:
    """Mails a single-use reset link when the account exists; the answer never says which."""
    await _throttle_mail(limiter, mailer.settings, "reset", email)
    user = await users.by_email(session, email)
    if user is None:
        return
    settings = mailer.settings
    # Only the newest link works.
    await repository.retire_reset_links(session, user.id, utcnow())
    plaintext = random_token(32)
    session.add(
        PasswordResetToken(
            user_id=user.id,
            token_hash=sha256_hex(plaintext),
            expires_at=utcnow() + timedelta(minutes=settings.password_reset_ttl_minutes),
        )
    )
    link = (
        f"{settings.app_url}/reset-password?{urlencode({'token': plaintext, 'email': user.email})}"
    )
    await mailer.send_link_email(
        session,
        to=user.email,
        kind="reset-password",
        subject="Reset your Callwright password",
        greeting=f"Hello {user.name},",
        intro="We received a request to reset the password of your Callwright account.",
        action="Reset password",
        link=link,
        outro=(
            f"The link expires in {settings.password_reset_ttl_minutes} minutes and works once. "
            "If you did not ask for it, no action is needed."
        ),
    )


async def reset_password(
    session: AsyncSession,
    sockets: SocketControl,
    billing: StarterCredit,
    settings: Settings,
    *,
    token: str,
    email: str,
    password: str,
    confirmation: str | None,
) -> User:
    if confirmation is not None and confirmation != password:
        raise ValidationFailed({"password": ["The password confirmation does not match."]})
    row = await repository.reset_link(session, sha256_hex(token))
    user = await users.get(session, row.user_id) if row is not None else None
    if (
        row is None
        or user is None
        or row.used_at is not None
        or row.expires_at <= utcnow()
        or user.email != email
    ):
        raise ValidationFailed({"token": [RESET_INVALID]})
    password_hash = await hash_password_async(password)
    # Single use under concurrency: the link is consumed by one conditional UPDATE; of requests
    # presenting it at once, one changes the row and the others find it used.
    now = utcnow()
    if not await repository.consume_reset_link(session, row.id, now):
        raise ValidationFailed({"token": [RESET_INVALID]})
    user.password_hash = password_hash
    # The link proved the address is theirs.
    if user.email_verified_at is None:
        await mark_verified(session, billing, settings, user)
    # A reset ends every session and socket.
    await tokens.revoke_all(session, user.id, sockets)
    return user


async def change_password(
    session: AsyncSession,
    sockets: SocketControl,
    user: User,
    *,
    old_password: str,
    new_password: str,
    confirmation: str,
    keep_token_id: int,
) -> None:
    if not await verify_password_async(user.password_hash, old_password):
        raise ValidationFailed({"old_password": ["The current password is incorrect."]})
    if confirmation != new_password:
        raise ValidationFailed(
            {"new_password_confirmation": ["The new password confirmation does not match."]}
        )
    user.password_hash = await hash_password_async(new_password)
    # Other sessions and their sockets end; this one stays signed in.
    await tokens.revoke_all(session, user.id, sockets, except_id=keep_token_id)
