"""The admin back-office API: users and balances (with the ledger), statistics and charts over
the rollup, the call log's search, sort and paging, reports, posts and the form inbox."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from callwright.admin import analytics
from callwright.kit.time import utcnow
from callwright.models import (
    ApiToken,
    Call,
    CallReport,
    CallStatsHourly,
    FormSubmission,
    LedgerEntry,
    Post,
    User,
)
from tests.factories import ApiClient, add_user, make_client, signed_in

pytestmark = pytest.mark.asyncio

STRONG = "Str0ngPass"


async def _admin(app: FastAPI) -> tuple[ApiClient, User]:
    return await signed_in(app, "boss@example.com", name="Boss", role="admin")


async def _calls(app: FastAPI, *rows: dict[str, Any]) -> list[Call]:
    """Insert finished calls; each row overrides the defaults."""
    out = []
    async with app.state.db.sessionmaker() as session:
        for i, row in enumerate(rows):
            created = row.pop("created_at", utcnow() - timedelta(days=2))
            call = Call(
                carrier="sandbox",
                from_number="+15550100000",
                to_number=row.pop("to_number", f"+1555020{i:04d}"),
                prompt="p",
                voice="amy",
                status=row.pop("status", "completed"),
                duration_seconds=row.pop("duration_seconds", 90),
                created_at=created,
                queued_at=created,
                finalized_at=row.pop("finalized_at", created + timedelta(minutes=5)),
                **row,
            )
            session.add(call)
            out.append(call)
        await session.commit()
    return out


async def _ledger(app: FastAPI, user_id: int) -> list[LedgerEntry]:
    async with app.state.db.sessionmaker() as session:
        rows = await session.scalars(
            select(LedgerEntry).where(LedgerEntry.user_id == user_id).order_by(LedgerEntry.id)
        )
        return list(rows)


# ---------------------------------------------------------------- users and balances


async def test_users_search_and_seven_per_page(app: FastAPI) -> None:
    admin, _ = await _admin(app)
    for i in range(9):
        await add_user(app, email=f"person{i}@example.com", name=f"Person {i}")
    await add_user(app, email="zed@corp.test", name="Zed Quist")
    async with admin:
        first = (await admin.api("GET", "admin/users")).json()
        assert first["pagination"] == {
            "current_page": 1,
            "last_page": 2,
            "per_page": 7,
            "total": 11,
        }
        assert [u["name"] for u in first["data"]][:2] == ["Boss", "Person 0"]
        assert set(first["data"][0]) >= {"id", "name", "email", "balance", "role"}
        by_mail = (await admin.api("GET", "admin/users", params={"q": "CORP.test"})).json()
        assert [u["name"] for u in by_mail["data"]] == ["Zed Quist"]
        by_name = (await admin.api("GET", "admin/users", params={"q": "person 3"})).json()
        assert [u["email"] for u in by_name["data"]] == ["person3@example.com"]
        wildcard = (await admin.api("GET", "admin/users", params={"q": "%"})).json()
        assert wildcard["data"] == []


async def test_add_user_with_opening_balance_in_the_ledger(app: FastAPI) -> None:
    admin, me = await _admin(app)
    async with admin:
        response = await admin.api(
            "POST",
            "admin/add-user",
            json={
                "name": "New Person",
                "email": "New@Example.com",
                "password": STRONG,
                "balance": 10,
            },
        )
        assert response.status_code == 201, response.text
        body = response.json()
        assert body["message"] == "Added user successfuly."
        assert body["data"]["email"] == "new@example.com"
        assert body["data"]["balance"] == 10
        assert body["data"]["role"] == "user"
        entries = await _ledger(app, body["data"]["id"])
        assert [(e.kind, e.amount_cents, e.balance_after_cents, e.created_by) for e in entries] == [
            ("top_up", 1000, 1000, me.id)
        ]
        duplicate = await admin.api(
            "POST",
            "admin/add-user",
            json={"name": "Again", "email": "new@EXAMPLE.com", "password": STRONG, "balance": 5},
        )
        assert duplicate.status_code == 400
        assert duplicate.json()["message"] == "Email already exists"
    async with make_client(app) as fresh:
        await fresh.login("new@example.com", STRONG)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("password", "short1A", "Password must contain at least one uppercase letter"),
        ("password", "alllowercase1", "Password must contain at least one uppercase letter"),
        ("password", "NoDigitsHere", "Password must contain at least one uppercase letter"),
        ("email", "not-an-email", "Invalid email format"),
        ("name", "   ", "The name field is required."),
        ("balance", -1, "Balance cannot be negative"),
        ("balance", 1.234, "Use at most 2 decimal places"),
        ("role", "owner", "Input should be 'user' or 'admin'"),
    ],
)
async def test_add_user_rules(app: FastAPI, field: str, value: Any, message: str) -> None:
    admin, _ = await _admin(app)
    payload = {"name": "N", "email": "n@example.com", "password": STRONG, "balance": 10}
    async with admin:
        response = await admin.api("POST", "admin/add-user", json={**payload, field: value})
    assert response.status_code == 422
    assert response.json()["errors"][field][0].startswith(message)


async def test_update_user_changes_only_what_is_sent(app: FastAPI) -> None:
    admin, me = await _admin(app)
    user = await add_user(app, email="u@example.com", name="U", balance_cents=500)
    await add_user(app, email="taken@example.com")
    async with admin:
        same = await admin.api("PUT", f"admin/users/{user.id}", json={})
        assert same.json()["message"] == "No changes detected."
        taken = await admin.api(
            "PUT", f"admin/users/{user.id}", json={"email": "TAKEN@example.com"}
        )
        assert taken.status_code == 400
        assert taken.json()["message"] == "Email already exists"
        changed = await admin.api(
            "PUT", f"admin/users/{user.id}", json={"name": "U2", "balance": 12.5, "role": "admin"}
        )
        assert changed.status_code == 200, changed.text
        assert changed.json()["message"] == "User updated successfully"
        data = changed.json()["data"]
        assert (data["name"], data["email"], data["balance"], data["role"]) == (
            "U2",
            "u@example.com",
            12.5,
            "admin",
        )
        negative = await admin.api("PUT", f"admin/users/{user.id}", json={"balance": -1})
        assert negative.json()["errors"]["balance"] == ["Balance cannot be negative"]
        self_demote = await admin.api("PUT", f"admin/users/{me.id}", json={"role": "user"})
        assert self_demote.status_code == 422
        password = await admin.api(
            "PUT", f"admin/users/{user.id}", json={"password": "N3wPassword"}
        )
        assert password.status_code == 200
        missing = await admin.api("PUT", "admin/users/999999", json={"name": "X"})
        assert missing.status_code == 404
    entries = await _ledger(app, user.id)
    assert [(e.kind, e.amount_cents, e.balance_after_cents, e.created_by) for e in entries] == [
        ("adjustment", 750, 1250, me.id)
    ]
    async with make_client(app) as fresh:
        await fresh.login("u@example.com", "N3wPassword")


async def test_add_balance_tops_up_and_records_the_admin(app: FastAPI) -> None:
    admin, me = await _admin(app)
    user = await add_user(app, email="u@example.com", balance_cents=250)
    async with admin:
        response = await admin.api("PUT", f"admin/users/{user.id}/balance", json={"amount": 20.05})
        assert response.status_code == 200, response.text
        assert response.json()["message"] == "Added $20.05 to user balance"
        assert response.json()["data"]["balance"] == 22.55
        for bad in (0, -5, "abc", 0.001):
            refused = await admin.api("PUT", f"admin/users/{user.id}/balance", json={"amount": bad})
            assert refused.status_code == 422, bad
        zero = await admin.api("PUT", f"admin/users/{user.id}/balance", json={"amount": 0})
        assert zero.json()["errors"]["amount"] == ["Amount must be greater than 0"]
    async with make_client(app) as client:
        await client.login("u@example.com")
        profile = (await client.api("GET", "user/profile")).json()["data"]
        assert profile["balance"] == 22.55
    entries = await _ledger(app, user.id)
    assert [(e.kind, e.amount_cents, e.balance_after_cents, e.created_by) for e in entries] == [
        ("top_up", 2005, 2255, me.id)
    ]


async def test_delete_user_keeps_calls_and_drops_their_ledger(app: FastAPI) -> None:
    admin, me = await _admin(app)
    user = await add_user(app, email="gone@example.com", balance_cents=100)
    async with admin:
        await admin.api("PUT", f"admin/users/{user.id}/balance", json={"amount": 5})
        (call,) = await _calls(app, {"user_id": user.id, "cost_cents": 49})
        (busy,) = await _calls(
            app, {"user_id": user.id, "status": "in-progress", "finalized_at": None}
        )
        refused = await admin.api("DELETE", f"admin/users/{user.id}")
        assert refused.status_code == 409
        assert "call in progress" in refused.json()["message"]
        async with app.state.db.sessionmaker() as session:
            row = await session.get(Call, busy.id)
            assert row is not None
            row.finalized_at = utcnow()
            await session.commit()
        myself = await admin.api("DELETE", f"admin/users/{me.id}")
        assert myself.status_code == 409
        deleted = await admin.api("DELETE", f"admin/users/{user.id}")
        assert deleted.status_code == 200
        assert deleted.json()["message"] == "User deleted successfully"
        assert (await admin.api("DELETE", f"admin/users/{user.id}")).status_code == 404
        logs = (await admin.api("GET", "admin/calls", params={"q": call.id})).json()["calls"]
        assert logs[0]["user"] is None
        assert logs[0]["cost"] == 0.49
    async with app.state.db.sessionmaker() as session:
        assert await session.get(User, user.id) is None
        assert await session.scalar(select(func.count()).select_from(LedgerEntry)) == 0
        assert (
            await session.scalar(
                select(func.count()).select_from(ApiToken).where(ApiToken.user_id == user.id)
            )
            == 0
        )


# ---------------------------------------------------------------- statistics and charts


def _hours_ago(hours: float) -> datetime:
    return utcnow() - timedelta(hours=hours)


async def test_stats_and_charts_agree_with_the_calls_before_and_after_the_rollup(
    app: FastAPI,
) -> None:
    admin, _ = await _admin(app)
    a = await add_user(app, email="a@example.com")
    b = await add_user(app, email="b@example.com")
    await _calls(
        app,
        {
            "user_id": a.id,
            "duration_seconds": 30,
            "cost_cents": 49,
            "recording_path": "x.wav",
            "end_reason": "voicemail",
        },
        {
            "user_id": a.id,
            "duration_seconds": 150,
            "cost_cents": 147,
            "recording_path": "y.wav",
            "end_reason": "completed",
        },
        {
            "user_id": a.id,
            "duration_seconds": 5000,
            "cost_cents": 1470,
            "created_at": _hours_ago(100),
            "end_reason": "time-limit",
        },
        {
            "user_id": b.id,
            "status": "failed",
            "duration_seconds": None,
            "created_at": _hours_ago(24 * 40),
            "end_reason": "failed",
        },
        {
            "user_id": None,
            "kind": "test",
            "status": "no-answer",
            "duration_seconds": 0,
            "end_reason": "no-answer",
        },
        {
            "user_id": b.id,
            "duration_seconds": 700,
            "cost_cents": 588,
            "created_at": _hours_ago(0.01),
            "end_reason": "stopped",
        },
    )
    async with app.state.db.sessionmaker() as session:
        live_only = await analytics.charts(session, None, 0)
    async with admin:
        stats = (await admin.api("GET", "admin/stats")).json()
        charts = (await admin.api("GET", "admin/analytics")).json()["data"]
    assert stats["success"] is True
    assert stats["data"] == {
        "totalCalls": 6,
        "totalUsers": 3,
        "totalUsedBalance": 22.54,
        # durations are capped at an hour: 30 + 150 + 3600 + 700 s
        "totalCallDuration": round(4480 / 60, 1),
        "avgCallDuration": round(4480 / 60 / 6, 1),
        # Only the completed call: a voicemail, a time limit and a stop are not successes,
        # though the carrier reported each as "completed".
        "successRate": round(1 * 100 / 6, 1),
        "totalActiveUsers": 2,
        "avgCallsPerUser": 2.0,
    }
    async with app.state.db.sessionmaker() as session:
        rolled = await session.scalar(select(func.count()).select_from(CallStatsHourly))
    assert rolled
    assert rolled >= 4  # the finished hours went into the rollup
    assert charts == live_only  # the rollup changes nothing the charts show
    assert [b["calls"] for b in charts["duration_buckets"]] == [1, 0, 1, 0, 1, 0, 1]
    assert charts["duration_buckets"][0]["label"] == "0-1"
    assert {s["status"]: s["calls"] for s in charts["statuses"]} == {
        "completed": 4,
        "failed": 1,
        "no-answer": 1,
    }
    # How they ended, rolled up or live (a voicemail is a completed status, not a success story).
    assert {o["outcome"]: o["calls"] for o in charts["outcomes"]} == {
        "voicemail": 1,
        "completed": 1,
        "time-limit": 1,
        "failed": 1,
        "no-answer": 1,
        "stopped": 1,
    }
    assert charts["recording"] == {"recorded": 2, "not_recorded": 4}
    assert len(charts["daily"]) == 30
    assert sum(d["calls"] for d in charts["daily"]) == 5  # the 40-day-old call is outside
    assert len(charts["hours"]) == 24
    assert sum(h["calls"] for h in charts["hours"]) == 6
    assert charts["weekdays"][0]["day"] == "Monday"
    assert sum(w["calls"] for w in charts["weekdays"]) == 6


async def test_an_unfinished_call_holds_the_rollup_back_until_it_ends(app: FastAPI) -> None:
    admin, _ = await _admin(app)
    (open_call,) = await _calls(
        app, {"status": "in-progress", "finalized_at": None, "created_at": _hours_ago(5)}
    )
    async with admin:
        await admin.api("GET", "admin/stats")
        async with app.state.db.sessionmaker() as session:
            mark = await analytics.rolled_until(session)
        assert mark is not None
        assert mark <= open_call.created_at
        async with app.state.db.sessionmaker() as session:
            row = await session.get(Call, open_call.id)
            assert row is not None
            row.status, row.duration_seconds, row.finalized_at = "completed", 61, utcnow()
            await session.commit()
        stats = (await admin.api("GET", "admin/stats")).json()["data"]
    assert stats["successRate"] == 100
    assert stats["totalCallDuration"] == round(61 / 60, 1)


async def test_weekday_and_hour_follow_the_callers_offset(app: FastAPI) -> None:
    admin, _ = await _admin(app)
    # 2026-11-16 is a Monday; 23:30 UTC is Tuesday 01:30 at UTC+2.
    await _calls(app, {"created_at": datetime.fromisoformat("2026-11-16T23:30:00+00:00")})
    async with admin:
        utc = (await admin.api("GET", "admin/analytics")).json()["data"]
        plus2 = (await admin.api("GET", "admin/analytics", params={"tz_offset": 120})).json()[
            "data"
        ]
        bad = await admin.api("GET", "admin/analytics", params={"tz_offset": 5000})
    assert utc["weekdays"][0]["calls"] == 1
    assert utc["hours"][23]["calls"] == 1
    assert plus2["weekdays"][1]["calls"] == 1
    assert plus2["hours"][1]["calls"] == 1
    assert bad.status_code == 422


async def test_top_users_by_call_volume(app: FastAPI) -> None:
    admin, _ = await _admin(app)
    a = await add_user(app, email="a@example.com", name="A")
    b = await add_user(app, email="b@example.com", name="B")
    await _calls(
        app, *({"user_id": a.id} for _ in range(2)), *({"user_id": b.id} for _ in range(3))
    )
    async with admin:
        top = (await admin.api("GET", "admin/top-users", params={"limit": 5})).json()["data"]
    assert [(u["name"], u["email"], u["call_count"]) for u in top] == [
        ("B", "b@example.com", 3),
        ("A", "a@example.com", 2),
    ]


# ---------------------------------------------------------------- call logs and reports


async def test_call_log_search_sort_and_paging(app: FastAPI) -> None:
    admin, _ = await _admin(app)
    ada = await add_user(app, email="ada@math.test", name="Ada Lovelace")
    bob = await add_user(app, email="bob@example.com", name="Bob")
    base = utcnow() - timedelta(days=1)
    rows = [
        {"user_id": ada.id, "created_at": base + timedelta(minutes=i), "duration_seconds": 10 * i}
        for i in range(12)
    ]
    rows.append(
        {
            "user_id": bob.id,
            "to_number": "+14155550199",
            "status": "failed",
            "created_at": base + timedelta(hours=1),
            "recording_path": "r.wav",
            "cost_cents": 98,
        }
    )
    calls = await _calls(app, *rows)
    async with admin:
        page1 = (await admin.api("GET", "admin/calls")).json()
        assert page1["pagination"]["total"] == 13
        assert page1["pagination"]["last_page"] == 2
        assert len(page1["calls"]) == 10
        first = page1["calls"][0]
        assert first["call_id"] == calls[-1].id  # newest first
        assert first["user"] == {"id": bob.id, "name": "Bob", "email": "bob@example.com"}
        assert first["from"] == "+15550100000"
        assert first["to"] == "+14155550199"
        assert first["cost"] == 0.98
        assert (
            first["record_url"]
            == first["recording_url"]
            == f"/api/v1/play-recording/{calls[-1].id}"
        )

        async def ids(**params: Any) -> list[str]:
            body = (await admin.api("GET", "admin/calls", params=params)).json()
            return [c["call_id"] for c in body["calls"]]

        assert await ids(q="lovelace", per_page=50) == [c.id for c in reversed(calls[:12])]
        assert await ids(q="MATH.TEST", sort="call_length", per_page=3) == [c.id for c in calls[:3]]
        assert await ids(q="failed") == [calls[-1].id]
        assert await ids(q="1415555") == [calls[-1].id]  # numbers match from the country code
        assert await ids(q="4155550") == []
        assert await ids(q="+1 415 555") == [calls[-1].id]
        assert await ids(q=calls[3].id[:8]) == [calls[3].id]
        assert await ids(q="nobody-matches") == []
        assert await ids(sort="-call_length", per_page=1) == [calls[11].id]
        assert await ids(sort="user", per_page=1) == [calls[11].id]  # Ada, newest first
        bad = await admin.api("GET", "admin/calls", params={"sort": "password"})
        assert bad.status_code == 422


async def test_admin_reads_any_transcript_and_recording_route(app: FastAPI) -> None:
    admin, _ = await _admin(app)
    other = await add_user(app, email="o@example.com")
    (call,) = await _calls(app, {"user_id": other.id})
    async with admin:
        transcript = await admin.api("GET", f"call/{call.id}/transcript")
    assert transcript.status_code == 200


async def test_reports_ten_per_page_with_user_and_reason(app: FastAPI) -> None:
    admin, _ = await _admin(app)
    user = await add_user(app, email="r@example.com", name="Reporter")
    (call,) = await _calls(app, {"user_id": user.id})
    async with app.state.db.sessionmaker() as session:
        for i in range(11):
            session.add(
                CallReport(
                    call_id=call.id,
                    user_id=user.id,
                    reason=f"reason {i}",
                    created_at=utcnow() - timedelta(minutes=20 - i),
                )
            )
        await session.commit()
    async with admin:
        body = (await admin.api("GET", "admin/reports")).json()
        second = (await admin.api("GET", "admin/reports", params={"page": 2})).json()
    assert body["pagination"]["last_page"] == 2
    assert len(body["reports"]) == 10
    top = body["reports"][0]
    assert (top["call_id"], top["username"], top["email"], top["reason"]) == (
        call.id,
        "Reporter",
        "r@example.com",
        "reason 10",
    )
    assert [r["reason"] for r in second["reports"]] == ["reason 0"]


# ---------------------------------------------------------------- posts and the inbox


async def test_post_crud_sanitises_and_shows_on_the_public_blog(app: FastAPI) -> None:
    admin, me = await _admin(app)
    async with admin:
        missing = await admin.api("POST", "admin/posts", json={"title": " ", "content": "<p></p>"})
        assert missing.status_code == 422
        assert missing.json()["errors"]["title"] == ["Title is required"]
        assert missing.json()["errors"]["description"] == ["Description is required"]
        empty = await admin.api(
            "POST",
            "admin/posts",
            json={"title": "T", "description": "D", "content": "<p><script>x</script></p>"},
        )
        assert empty.json()["errors"]["content"] == ["Content is required"]
        created = await admin.api(
            "POST",
            "admin/posts",
            json={
                "title": "Launch notes",
                "description": "What is new",
                "content": '<h2>Hi</h2><p onclick="x()">Body <a href="javascript:alert(1)">x</a></p>'
                '<img src="https://example.com/a.png" onerror="x()">',
            },
        )
        assert created.status_code == 201, created.text
        post = created.json()["data"]
        assert created.json()["message"] == "Post created successfully"
        assert post["admin_name"] == "Boss"
        assert "onclick" not in post["content"]
        assert "javascript" not in post["content"]
        assert "onerror" not in post["content"]
        assert "<h2>Hi</h2>" in post["content"]
        edited = await admin.api(
            "PUT",
            f"admin/posts/{post['id']}",
            json={
                "title": "Launch notes v2",
                "description": "What is new",
                "content": "<p>New</p>",
                "admin_name": "Editor",
                "post_date": "2026-01-02T03:04:05Z",
            },
        )
        assert edited.json()["data"]["title"] == "Launch notes v2"
        assert edited.json()["data"]["admin_name"] == "Editor"
        listing = (await admin.api("GET", "admin/posts", params={"per_page": 7})).json()
        assert listing["data"]["pagination"]["per_page"] == 7
        assert [p["id"] for p in listing["data"]["posts"]] == [post["id"]]
        async with make_client(app) as public:
            shown = (await public.api("GET", f"posts/{post['id']}")).json()["data"]
            assert shown["title"] == "Launch notes v2"
            assert shown["content"] == "<p>New</p>"
        deleted = await admin.api("DELETE", f"admin/posts/{post['id']}")
        assert deleted.json()["message"] == "Post deleted successfully"
        assert (await admin.api("GET", f"admin/posts/{post['id']}")).status_code == 404
    async with app.state.db.sessionmaker() as session:
        assert await session.scalar(select(func.count()).select_from(Post)) == 0
    assert me.role == "admin"


async def test_form_inbox_pages_and_marks_read_one_way(app: FastAPI) -> None:
    admin, _ = await _admin(app)
    async with app.state.db.sessionmaker() as session:
        for i in range(11):
            session.add(
                FormSubmission(
                    form_type="contact" if i % 2 else "enterprise",
                    email=f"f{i}@example.com",
                    message=f"m{i}",
                    created_at=utcnow() - timedelta(minutes=30 - i),
                )
            )
        await session.commit()
    async with admin:
        page = (await admin.api("GET", "admin/form-inbox")).json()
        assert page["pagination"]["total"] == 11
        assert len(page["data"]) == 10
        assert page["unread"] == 11
        newest = page["data"][0]
        assert newest["email"] == "f10@example.com"
        assert newest["is_readed"] is False
        marked = await admin.api("PATCH", f"admin/form-submissions/{newest['id']}/mark-as-read")
        assert marked.json()["message"] == "Submission marked as read"
        assert marked.json()["data"]["is_readed"] is True
        again = await admin.api("PATCH", f"admin/form-submissions/{newest['id']}/mark-as-read")
        assert again.json()["data"]["is_readed"] is True
        count = (await admin.api("GET", "admin/form-inbox/unread-count")).json()["data"]
        assert count == {"unread": 10}
        gone = await admin.api("PATCH", "admin/form-submissions/99999/mark-as-read")
        assert gone.status_code == 404
