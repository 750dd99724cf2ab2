"""The public site's API: blog posts, the contact and enterprise forms, the free test call, and
the admins' test-call prompt with its counters."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter

from callwright.auth.deps import AdminUser
from callwright.calls.builder import CallRequest, build_order
from callwright.calls.deps import CallsDep
from callwright.calls.viewers import issue_secret
from callwright.config import Settings
from callwright.content import repository as content
from callwright.content.sanitize import clean_html, plain_text
from callwright.content.schemas import (
    ClientConfig,
    ContactIn,
    Done,
    EnterpriseIn,
    InboxPage,
    PostIn,
    PostOut,
    PostResponse,
    PostSaved,
    PostsData,
    PostsPage,
    SignInProviders,
    SubmissionOut,
    SubmissionRead,
    TestCallIn,
    TestCallOut,
    TestCallTask,
    TestCallTaskIn,
    TestCallTaskOut,
    TodayCount,
    TodayOut,
    UnreadCount,
    UnreadOut,
    WeekCount,
    WeekOut,
)
from callwright.kit.bounds import PageRequest, PathId, page_params
from callwright.kit.db import SessionDep
from callwright.kit.deps import ClientIP, LimiterDep, SettingsDep
from callwright.kit.errors import ValidationFailed, or_404
from callwright.kit.ratelimit import RateLimiter
from callwright.kit.time import utcnow
from callwright.models import FormSubmission, Post, User

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


@router.get("/client-config")
async def client_config(settings: SettingsDep) -> ClientConfig:
    """The sign-in providers configured on this server (the Google button shows only when
    Google sign-in is set up), the region phone numbers without "+" are read in, and the
    free test call's length (the landing page says it)."""
    return ClientConfig(
        sign_in=SignInProviders(google=settings.google_enabled),
        phone_region=settings.default_region,
        test_call_max_minutes=settings.test_call_max_minutes,
    )


@router.get("/posts")
async def list_posts(
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(4, most=50)],
) -> PostsPage:
    """Published posts, newest first (4 per page unless asked)."""
    rows, total = await content.posts_page(session, page=paging.page, per_page=paging.per_page)
    return PostsPage(
        data=PostsData(
            posts=[post_out(p) for p in rows],
            pagination=paging.pagination(total),
        )
    )


@router.get("/posts/{post_id}")
async def get_post(post_id: PathId, session: SessionDep) -> PostResponse:
    post = or_404(await content.get_post(session, post_id), "Post not found")
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
    domain: CallsDep,
    limiter: LimiterDep,
    settings: SettingsDep,
    ip: ClientIP,
) -> TestCallOut:
    """The landing page's free test call: the admins' test-call prompt, the default voice, a
    short maximum length, no account and no charge. The answer carries a visitor secret (in
    the body, for this page only) that lets this browser's socket watch the call's progress."""
    await _limit_test_calls(limiter, settings, ip, body.phone_number)
    secret, secret_hash = issue_secret()
    order = await build_order(
        session,
        CallRequest(
            kind="test",
            to_number=body.phone_number,
            settings={
                "prompt": await content.test_call_task(session),
                "max_duration": settings.test_call_max_minutes,
            },
            viewer_token_hash=secret_hash,
        ),
    )
    call = await domain.service.place(session, order)
    return TestCallOut(
        message="Test call initiated! You will receive a call shortly.",
        callId=call.id,
        viewerToken=secret,
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


def _post_fields(body: PostIn, admin: User) -> dict[str, object]:
    """The stored fields of a post: sanitised HTML that still has something to show."""
    html = clean_html(body.content)
    if not plain_text(html).strip() and "<img" not in html:
        raise ValidationFailed({"content": ["Content is required"]})
    return {
        "title": body.title,
        "description": body.description,
        "content": html,
        "admin_name": (body.admin_name or "").strip() or admin.name,
    }


async def _post(session: SessionDep, post_id: int) -> Post:
    return or_404(await content.get_post(session, post_id), "Post not found.")


@admin_router.get("/posts")
async def admin_posts(
    _admin: AdminUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(10)],
) -> PostsPage:
    """Every post, newest first (10 per page unless asked; the screen asks for 7)."""
    return await list_posts(session, paging)


@admin_router.get("/posts/{post_id}")
async def admin_post(post_id: PathId, _admin: AdminUser, session: SessionDep) -> PostResponse:
    return PostResponse(data=post_out(await _post(session, post_id)))


@admin_router.post("/posts", status_code=201)
async def create_post(body: PostIn, admin: AdminUser, session: SessionDep) -> PostSaved:
    """A new post; the author name defaults to the admin's, the date to now."""
    post = await content.add_post(
        session,
        Post(**_post_fields(body, admin), author_id=admin.id, post_date=body.post_date or utcnow()),
    )
    return PostSaved(message="Post created successfully", data=post_out(post))


@admin_router.put("/posts/{post_id}")
async def update_post(
    post_id: PathId, body: PostIn, admin: AdminUser, session: SessionDep
) -> PostSaved:
    post = await _post(session, post_id)
    for name, value in _post_fields(body, admin).items():
        setattr(post, name, value)
    if body.post_date is not None:
        post.post_date = body.post_date
    await session.flush()
    return PostSaved(message="Post updated successfully", data=post_out(post))


@admin_router.delete("/posts/{post_id}")
async def delete_post(post_id: PathId, _admin: AdminUser, session: SessionDep) -> Done:
    await content.delete_post(session, await _post(session, post_id))
    return Done(message="Post deleted successfully")


def submission_out(row: FormSubmission) -> SubmissionOut:
    return SubmissionOut(
        id=row.id,
        form_type=row.form_type,
        email=row.email,
        phone=row.phone,
        message=row.message,
        name=row.name,
        website=row.website,
        use_case=row.use_case,
        phone_calls_per_month=row.phone_calls_per_month,
        entity_type=row.entity_type,
        created_at=row.created_at,
        is_readed=row.is_read,
    )


@admin_router.get("/form-inbox")
async def form_inbox(
    _admin: AdminUser,
    session: SessionDep,
    paging: Annotated[PageRequest, page_params(10)],
) -> InboxPage:
    """Contact and enterprise submissions, newest first, with the number still unread."""
    rows, total = await content.submissions_page(
        session, page=paging.page, per_page=paging.per_page
    )
    return InboxPage(
        data=[submission_out(r) for r in rows],
        pagination=paging.pagination(total),
        unread=await content.unread_submissions(session),
    )


@admin_router.get("/form-inbox/unread-count")
async def form_inbox_unread(_admin: AdminUser, session: SessionDep) -> UnreadOut:
    """For the sidebar's indicator dot."""
    return UnreadOut(data=UnreadCount(unread=await content.unread_submissions(session)))


@admin_router.patch("/form-submissions/{submission_id}/mark-as-read")
async def mark_as_read(
    submission_id: PathId, _admin: AdminUser, session: SessionDep
) -> SubmissionRead:
    """One way: a read submission stays read (marking it again changes nothing)."""
    row = or_404(await content.get_submission(session, submission_id), "Submission not found.")
    if not row.is_read:
        row.is_read = True
        await session.flush()
    return SubmissionRead(message="Submission marked as read", data=submission_out(row))
