"""Auth API (paths and shapes from the spec's section 7)."""

from __future__ import annotations

import json
import logging
from typing import Annotated
from urllib.parse import urlencode

import httpx2
from authlib.integrations.base_client.errors import OAuthError
from fastapi import APIRouter, Path, Query, Request, Response, status
from fastapi.responses import RedirectResponse
from joserfc.errors import JoseError

from callwright.auth import google, service, tokens
from callwright.auth.cookies import (
    XSRF_COOKIE,
    clear_session_cookie,
    new_xsrf_token,
    set_session_cookie,
    set_xsrf_cookie,
    valid_xsrf_token,
)
from callwright.auth.deps import CreditsDep, CurrentTokenId, OAuthDep
from callwright.auth.schemas import (
    EmailIn,
    GoogleRedirectOut,
    LoginIn,
    LoginOut,
    Message,
    RegisterIn,
    RegisterOut,
    ResetPasswordIn,
)
from callwright.kit.bounds import PathId
from callwright.kit.db import SessionDep
from callwright.kit.deps import ClientIP, LimiterDep, SettingsDep
from callwright.kit.errors import AppError
from callwright.mail.deps import MailerDep
from callwright.realtime.deps import SocketsDep
from callwright.users.schemas import UserOut

log = logging.getLogger(__name__)
router = APIRouter(tags=["auth"])


@router.get("/sanctum/csrf-cookie", status_code=204, response_class=Response)
async def csrf_cookie(request: Request, settings: SettingsDep) -> Response:
    """Sets a readable XSRF-TOKEN cookie (kept when the browser already holds a valid one)."""
    response = Response(status_code=204)
    current = request.cookies.get(XSRF_COOKIE, "")
    token = (
        current
        if valid_xsrf_token(settings.secret_key, current)
        else new_xsrf_token(settings.secret_key)
    )
    set_xsrf_cookie(response, settings, token)
    return response


@router.post("/register", status_code=201)
async def register(body: RegisterIn, session: SessionDep, mailer: MailerDep) -> RegisterOut:
    user = await service.register(
        session, mailer, name=body.name, email=body.email, password=body.password
    )
    return RegisterOut(
        message="Registration successful. Please check your email to verify your account.",
        user=UserOut.of(user),
    )


@router.get("/email/verify/{user_id}/{email_hash}", response_class=RedirectResponse)
async def verify_email(
    session: SessionDep,
    settings: SettingsDep,
    billing: CreditsDep,
    user_id: PathId,
    email_hash: Annotated[str, Path(max_length=64)],
    expires: Annotated[str, Query(max_length=20)] = "",
    signature: Annotated[str, Query(max_length=128)] = "",
) -> RedirectResponse:
    """The link from the verification e-mail; lands on the login page with the outcome."""
    try:
        outcome = await service.verify_email(
            session,
            settings,
            billing,
            user_id=user_id,
            email_hash=email_hash,
            expires=expires,
            signature=signature,
        )
        await session.flush()
    except Exception:
        log.exception("e-mail verification failed for user %s", user_id)
        await session.rollback()
        outcome = service.VerifyOutcome.VERIFICATION_FAILED
    if outcome is service.VerifyOutcome.VERIFIED:
        target = "/login?verified=true"
    else:
        target = "/login?" + urlencode({"verified": "false", "error": outcome.value})
    return RedirectResponse(target, status_code=302)


@router.post("/resend-verification")
async def resend_verification(
    body: EmailIn, session: SessionDep, mailer: MailerDep, limiter: LimiterDep
) -> Message:
    await service.resend_verification(session, mailer, limiter, body.email)
    return Message(message="Verification email resent. Please check your inbox.")


@router.post("/login")
async def login(
    body: LoginIn,
    response: Response,
    session: SessionDep,
    settings: SettingsDep,
    limiter: LimiterDep,
    ip: ClientIP,
) -> LoginOut:
    result = await service.login(
        session, settings, limiter, email=body.email, password=body.password, ip=ip
    )
    set_session_cookie(response, settings, result.token)
    log.info("login succeeded for user %s", result.user.id)
    return LoginOut(message="Login successful", token=result.token, user=UserOut.of(result.user))


@router.post("/logout")
async def logout(
    response: Response,
    session: SessionDep,
    settings: SettingsDep,
    sockets: SocketsDep,
    token_id: CurrentTokenId,
) -> Message:
    await tokens.revoke(session, token_id, sockets)
    clear_session_cookie(response, settings)
    return Message(message="Logged out successfully")


@router.post("/forgot-password")
async def forgot_password(
    body: EmailIn, session: SessionDep, mailer: MailerDep, limiter: LimiterDep
) -> Message:
    await service.forgot_password(session, mailer, limiter, body.email)
    return Message(
        message="If an account exists for that email, we have sent a password reset link to it."
    )


@router.post("/reset-password")
async def reset_password(
    body: ResetPasswordIn,
    session: SessionDep,
    sockets: SocketsDep,
    billing: CreditsDep,
    settings: SettingsDep,
) -> Message:
    await service.reset_password(
        session,
        sockets,
        billing,
        settings,
        token=body.token,
        email=body.email,
        password=body.password,
        confirmation=body.password_confirmation,
    )
    return Message(message="Your password has been reset. You can now log in.")


@router.get("/auth/google")
async def google_redirect(
    request: Request, settings: SettingsDep, oauth: OAuthDep
) -> GoogleRedirectOut:
    if not settings.google_enabled:
        raise AppError(google.NOT_CONFIGURED, status.HTTP_503_SERVICE_UNAVAILABLE)
    client = oauth.google
    try:
        data = await client.create_authorization_url(google.callback_url(settings))
    except Exception as exc:
        log.warning("Google sign-in could not start: %s", exc)
        raise AppError(
            "Google sign-in is unavailable right now. Please try again later.", 502
        ) from exc
    await client.save_authorize_data(request, redirect_uri=google.callback_url(settings), **data)
    return GoogleRedirectOut(redirect_url=data["url"])


@router.get("/auth/google/callback", response_class=RedirectResponse)
async def google_callback(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    billing: CreditsDep,
    oauth: OAuthDep,
) -> RedirectResponse:
    failed = RedirectResponse("/login?error=google_login_failed", status_code=302)
    if not settings.google_enabled:
        return failed
    try:
        token = await oauth.google.authorize_access_token(request)
        claims = token.get("userinfo")
        if not claims:
            raise google.GoogleLoginError("no ID token in the answer")
        user = await google.sign_in(session, billing, settings, dict(claims))
        plaintext = await tokens.issue(session, user.id, settings.token_ttl_minutes)
    except (OAuthError, JoseError, httpx2.HTTPError, google.GoogleLoginError, ValueError) as exc:
        log.warning("Google sign-in failed: %s", exc)
        return failed
    user_json = json.dumps(UserOut.of(user).model_dump(), separators=(",", ":"))
    response = RedirectResponse(
        "/login?" + urlencode({"token": plaintext, "user": user_json}), status_code=302
    )
    set_session_cookie(response, settings, plaintext)
    return response
