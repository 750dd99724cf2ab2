"""Queries for posts, form submissions, site settings and test-call counts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.kit.pagination import paged
from callwright.kit.time import utcnow
from callwright.models import Call, FormSubmission, Post, SiteSetting

TEST_CALL_TASK = "test_call_task"

#: The prompt of the landing page's free test call until an admin changes it. Written for the
#: offline brain as much as for an LLM: it reads the agent's name and company from "You are X
#: from Y".
DEFAULT_TEST_CALL_TASK = (
    "You are Ava from Callwright. You are calling because this person asked for a free test "
    "call on the Callwright website. Greet them, say this is the demo call they requested, and "
    "ask whether they have a minute. Explain briefly that Callwright's AI agents place outbound "
    "calls from a written prompt, show a live transcript, record every call and bill $0.49 per "
    "minute from a prepaid balance. Answer their questions in one or two short sentences, offer "
    "to have the sales team follow up, and end the call politely within two minutes."
)


async def posts_page(
    session: AsyncSession, *, page: int, per_page: int
) -> tuple[Sequence[Post], int]:
    query = select(Post).order_by(Post.post_date.desc(), Post.id.desc())
    return await paged(session, query, page=page, per_page=per_page)


async def get_post(session: AsyncSession, post_id: int) -> Post | None:
    return await session.get(Post, post_id)


async def add_submission(session: AsyncSession, submission: FormSubmission) -> FormSubmission:
    session.add(submission)
    await session.flush()
    return submission


async def setting(session: AsyncSession, key: str) -> SiteSetting | None:
    return await session.get(SiteSetting, key)


async def test_call_task(session: AsyncSession) -> str:
    row = await setting(session, TEST_CALL_TASK)
    return row.value if row else DEFAULT_TEST_CALL_TASK


async def set_setting(session: AsyncSession, key: str, value: str, user_id: int | None) -> None:
    row = await setting(session, key)
    if row is None:
        session.add(SiteSetting(key=key, value=value, updated_by=user_id))
    else:
        row.value = value
        row.updated_by = user_id
    await session.flush()


def day_start(now: datetime) -> datetime:
    return now.replace(hour=0, minute=0, second=0, microsecond=0)


def week_start(now: datetime) -> datetime:
    """Monday 00:00 of `now`'s week (UTC)."""
    return day_start(now) - timedelta(days=now.weekday())


async def test_calls_since(session: AsyncSession, since: datetime) -> int:
    count = await session.scalar(
        select(func.count()).where(Call.kind == "test", Call.created_at >= since)
    )
    return int(count or 0)


async def test_calls_today(session: AsyncSession) -> int:
    return await test_calls_since(session, day_start(utcnow()))


async def test_calls_this_week(session: AsyncSession) -> int:
    return await test_calls_since(session, week_start(utcnow()))


async def add_post(session: AsyncSession, post: Post) -> Post:
    session.add(post)
    await session.flush()
    return post


async def delete_post(session: AsyncSession, post: Post) -> None:
    await session.delete(post)
    await session.flush()


async def submissions_page(
    session: AsyncSession, *, page: int, per_page: int
) -> tuple[Sequence[FormSubmission], int]:
    query = select(FormSubmission).order_by(
        FormSubmission.created_at.desc(), FormSubmission.id.desc()
    )
    return await paged(session, query, page=page, per_page=per_page)


async def unread_submissions(session: AsyncSession) -> int:
    count = await session.scalar(
        select(func.count()).select_from(FormSubmission).where(FormSubmission.is_read.is_(False))
    )
    return int(count or 0)


async def get_submission(session: AsyncSession, submission_id: int) -> FormSubmission | None:
    return await session.get(FormSubmission, submission_id)
