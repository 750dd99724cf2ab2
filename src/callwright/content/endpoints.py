"""The public site's API: blog posts, the contact and enterprise forms, the free test call, and
the admins' test-call prompt with its counters."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from callwright.auth.deps import AdminUser
from callwright.calls.flows import CallEngine
from callwright.config import Settings
from callwright.content import repository as content
from callwright.content.sanitize import clean_html
from callwright.content.schemas import (
    ContactIn,
    Done,
    EnterpriseIn,
    PostOut,
    PostResponse,
    PostsData,
    PostsPage,
    TestCallIn,
    TestCallOut,
    TestCallTask,
    TestCallTaskIn,
    TestCallTaskOut,
    TodayCount,
    TodayOut,
    WeekCount,
    WeekOut,
)
from callwright.kit.db import SessionDep
from callwright.kit.deps import ClientIP, LimiterDep, SettingsDep
from callwright.kit.errors import NotFound
from callwright.kit.pagination import Pagination
from callwright.kit.ratelimit import RateLimiter
from callwright.models import Call, FormSubmission, Post
from callwright.speech import tts

router = APIRouter(tags=["public"])
admin_router = APIRouter(prefix="/admin", tags=["admin"])

HOUR = 3600
DAY = 24 * HOUR
TOO_MANY_TEST_CALLS = "Too many test call requests. Please try again later."
TOO_MANY_FORMS = "Too many submissions. Please try again later."


def post_out(post: Post) -> PostOut:
    return PostOut(
        id=post.id,
        title=post.title,
        description=post.description,
        content=clean_html(post.content),
        admin_name=post.admin_name,
        post_date=post.post_date,
        created_at=post.created_at,
        updated_at=post.updated_at,
    )


@router.get("/posts")
async def list_posts(
    session: SessionDep,
    page: Annotated[int, Query(ge=1)] = 1,
    per_page: Annotated[int, Query(ge=1, le=50)] = 4,
) -> PostsPage:
    """Published posts, newest first (4 per page unless asked)."""
    rows, total = await content.posts_page(session, page=page, per_page=per_page)
    return PostsPage(
        data=PostsData(
            posts=[post_out(p) for p in rows],
            pagination=Pagination.of(page=page, per_page=per_page, total=total),
        )
    )


@router.get("/posts/{post_id}")
async def get_post(post_id: int, session: SessionDep) -> PostResponse:
    post = await content.get_post(session, post_id)
    if post is None:
        raise NotFound("Post not found")
    return PostResponse(data=post_out(post))


async def _limit_forms(limiter: RateLimiter, settings: Settings, ip: str) -> None:
    await limiter.hit("forms-ip", ip, settings.forms_per_ip_per_hour, HOUR, TOO_MANY_FORMS)


@router.post("/contact")
async def contact(
    body: ContactIn,
    session: SessionDep,
    limiter: LimiterDep,
    settings: SettingsDep,
    ip: ClientIP,
) -> Done:
    """The subscribe form: stored for the admins' inbox."""
    await _limit_forms(limiter, settings, ip)
    await content.add_submission(
        session,
        FormSubmission(
            form_type="contact", email=body.email, phone=body.phone, message=body.message, ip=ip
        ),
    )
    return Done(message="Thank you for your message! We will get back to you soon.")


@router.post("/enterprise")
async def enterprise(
    body: EnterpriseIn,
    session: SessionDep,
    limiter: LimiterDep,
    settings: SettingsDep,
    ip: ClientIP,
) -> Done:
    """An enterprise application: stored for the admins' inbox."""
    await _limit_forms(limiter, settings, ip)
    await content.add_submission(
        session,
        FormSubmission(
            form_type="enterprise",
            name=body.name,
            email=body.email,
            website=body.website,
            use_case=body.use_case,
            phone_calls_per_month=body.phone_calls_per_month,
            entity_type=body.entity_type,
            message=body.message,
            ip=ip,
        ),
    )
    return Done(
        message="Thank you for your application! Our enterprise team will contact you within 24 hours."
    )


async def _limit_test_calls(limiter: RateLimiter, settings: Settings, ip: str, number: str) -> None:
    """Per caller IP, per destination number and for the whole site: checked together first,
    so a refused request uses up none of the three."""
    limits = [
        ("test-call-ip", ip, settings.test_call_per_ip_per_hour, HOUR),
        ("test-call-number", number, settings.test_call_per_number_per_day, DAY),
        ("test-call-all", "site", settings.test_call_daily_cap, DAY),
    ]
    for scope, key, limit, window in limits:
        await limiter.check(scope, key, limit, window, TOO_MANY_TEST_CALLS)
    for scope, key, limit, window in limits:
        await limiter.hit(scope, key, limit, window, TOO_MANY_TEST_CALLS)


@router.post("/test-call")
async def free_test_call(
    body: TestCallIn,
    session: SessionDep,
    request: Request,
    limiter: LimiterDep,
    settings: SettingsDep,
    ip: ClientIP,
) -> TestCallOut:
    """The landing page's free test call: the admins' test-call prompt, the default voice, a
    short maximum length, no account and no charge."""
    await _limit_test_calls(limiter, settings, ip, body.phone_number)
    engine: CallEngine = request.app.state.calls
    call = await engine.create(
        session,
        Call(
            kind="test",
            user_id=None,
            to_number=body.phone_number,
            from_number=settings.from_number,
            prompt=await content.test_call_task(session),
            voice=tts.default_voice().name,
            max_duration=settings.test_call_max_minutes,
        ),
    )
    return TestCallOut(
        message="Test call initiated! You will receive a call shortly.", callId=call.id
    )


@admin_router.get("/test-call-task")
async def get_test_call_task(_admin: AdminUser, session: SessionDep) -> TestCallTaskOut:
    return TestCallTaskOut(data=TestCallTask(task=await content.test_call_task(session)))


@admin_router.put("/test-call-task")
async def put_test_call_task(body: TestCallTaskIn, admin: AdminUser, session: SessionDep) -> Done:
    await content.set_setting(session, content.TEST_CALL_TASK, body.task, admin.id)
    return Done(message="Test call prompt updated successfully.")


@admin_router.get("/test-calls-today")
async def count_test_calls_today(_admin: AdminUser, session: SessionDep) -> TodayOut:
    """Test calls placed since 00:00 UTC."""
    return TodayOut(data=TodayCount(test_calls_today=await content.test_calls_today(session)))


@admin_router.get("/test-calls-this-week")
async def count_test_calls_this_week(_admin: AdminUser, session: SessionDep) -> WeekOut:
    """Test calls placed since Monday 00:00 UTC."""
    return WeekOut(data=WeekCount(test_calls_this_week=await content.test_calls_this_week(session)))
