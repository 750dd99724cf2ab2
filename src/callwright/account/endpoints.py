"""The signed-in user's own profile and password."""

from __future__ import annotations

from fastapi import APIRouter

from callwright.auth import service as auth_service
from callwright.auth.deps import CurrentTokenId, CurrentUser
from callwright.auth.schemas import Message
from callwright.kit.db import SessionDep
from callwright.realtime.deps import SocketsDep
from callwright.users.schemas import (
    PasswordChange,
    ProfileOut,
    ProfileResponse,
    ProfileUpdate,
    TimezoneUpdate,
)

router = APIRouter(tags=["users"])


@router.get("/user/profile")
async def get_profile(user: CurrentUser) -> ProfileResponse:
    return ProfileResponse(data=ProfileOut.of(user))


@router.put("/user/profile")
async def update_profile(
    body: ProfileUpdate, user: CurrentUser, session: SessionDep
) -> ProfileResponse:
    user.name = body.name
    await session.flush()
    return ProfileResponse(message="Profile updated successfully", data=ProfileOut.of(user))


@router.put("/user/timezone")
async def update_timezone(
    body: TimezoneUpdate, user: CurrentUser, session: SessionDep
) -> ProfileResponse:
    """The zone the user reads times in: refusals and schedules are told in it."""
    user.timezone = body.timezone
    await session.flush()
    return ProfileResponse(message="Time zone updated", data=ProfileOut.of(user))


@router.put("/user/password")
async def change_password(
    body: PasswordChange,
    user: CurrentUser,
    token_id: CurrentTokenId,
    session: SessionDep,
    sockets: SocketsDep,
) -> Message:
    await auth_service.change_password(
        session,
        sockets,
        user,
        old_password=body.old_password,
        new_password=body.new_password,
        confirmation=body.new_password_confirmation,
        keep_token_id=token_id,
    )
    return Message(message="Password updated successfully")
