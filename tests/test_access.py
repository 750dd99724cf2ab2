"""Route-walking access test: every API route is declared public, user or admin here, and is
called as anonymous, as a user, as another user and as an admin. A new route fails this test
until it is added to ROUTES (and, when it takes an object id, to the ownership checks)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

import pytest
from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute
from sqlalchemy import update

from callwright.auth.deps import admin_user, current_user
from callwright.developers.keys import api_key_caller
from callwright.flows.service import BLANK
from callwright.kit.time import utcnow
from callwright.models import Agent, ApiKey, Campaign, Flow, FlowVersion, LabRun
from tests.conftest import make_client
from tests.factories import add_api_key, add_user, queued_call

pytestmark = pytest.mark.asyncio

#: "key": the `/v1` API, reached only with an API key (never a dashboard session).
Level = Literal["public", "user", "admin", "key"]

ROUTES: dict[tuple[str, str], Level] = {
    ("GET", "/api/v1/health"): "public",
    ("GET", "/api/v1/sanctum/csrf-cookie"): "public",
    ("POST", "/api/v1/register"): "public",
    ("GET", "/api/v1/email/verify/{user_id}/{email_hash}"): "public",
    ("POST", "/api/v1/resend-verification"): "public",
    ("POST", "/api/v1/login"): "public",
    ("POST", "/api/v1/forgot-password"): "public",
    ("POST", "/api/v1/reset-password"): "public",
    ("GET", "/api/v1/auth/google"): "public",
    ("GET", "/api/v1/auth/google/callback"): "public",
    ("GET", "/api/v1/client-config"): "public",
    ("POST", "/api/v1/logout"): "user",
    ("GET", "/api/v1/user/profile"): "user",
    ("PUT", "/api/v1/user/profile"): "user",
    ("PUT", "/api/v1/user/timezone"): "user",
    ("PUT", "/api/v1/user/password"): "user",
    ("GET", "/api/v1/voices"): "user",
    ("GET", "/api/v1/languages"): "public",
    ("GET", "/api/v1/voices/{name}/sample.mp3"): "user",
    ("POST", "/api/v1/send-call"): "user",
    ("POST", "/api/v1/stop-call/{call_id}"): "user",
    ("GET", "/api/v1/call-details/{call_id}"): "user",
    ("GET", "/api/v1/call/{call_id}/transcript"): "user",
    ("GET", "/api/v1/call/{call_id}/latency"): "user",
    ("GET", "/api/v1/call/{call_id}/page"): "user",
    ("GET", "/api/v1/admin/calls/{call_id}"): "admin",
    ("GET", "/api/v1/user/{user_id}/calls"): "user",
    ("GET", "/api/v1/user/{user_id}/stats"): "user",
    ("GET", "/api/v1/user/{user_id}/live-calls"): "user",
    ("GET", "/api/v1/user/{user_id}/analysis"): "user",
    ("GET", "/api/v1/download-recording/{call_id}"): "user",
    ("GET", "/api/v1/play-recording/{call_id}"): "user",
    ("POST", "/api/v1/call/{call_id}/report"): "user",
    ("POST", "/api/v1/analyze-call/{call_id}"): "user",
    ("GET", "/api/v1/agents"): "user",
    ("POST", "/api/v1/agents"): "user",
    ("GET", "/api/v1/agents/{agent_id}"): "user",
    ("PUT", "/api/v1/agents/{agent_id}"): "user",
    ("DELETE", "/api/v1/agents/{agent_id}"): "user",
    ("GET", "/api/v1/agents/{agent_id}/derived-flow"): "user",
    ("POST", "/api/v1/agents/{agent_id}/derived-flow"): "user",
    ("GET", "/api/v1/agents/{agent_id}/tools"): "user",
    ("POST", "/api/v1/agents/{agent_id}/tools"): "user",
    ("PUT", "/api/v1/agents/{agent_id}/tools/{tool_id}"): "user",
    ("DELETE", "/api/v1/agents/{agent_id}/tools/{tool_id}"): "user",
    ("POST", "/api/v1/agents/{agent_id}/tools/{tool_id}/test"): "user",
    ("GET", "/api/v1/flows"): "user",
    ("POST", "/api/v1/flows"): "user",
    ("GET", "/api/v1/flows/starters"): "user",
    ("POST", "/api/v1/flows/import"): "user",
    ("GET", "/api/v1/flows/{flow_id}"): "user",
    ("PUT", "/api/v1/flows/{flow_id}"): "user",
    ("DELETE", "/api/v1/flows/{flow_id}"): "user",
    ("POST", "/api/v1/flows/{flow_id}/publish"): "user",
    ("GET", "/api/v1/flows/{flow_id}/versions"): "user",
    ("GET", "/api/v1/flows/{flow_id}/versions/{version}"): "user",
    ("GET", "/api/v1/flows/{flow_id}/export"): "user",
    ("POST", "/api/v1/flows/{flow_id}/test"): "user",
    ("GET", "/api/v1/agents/{agent_id}/lab/scenarios"): "user",
    ("POST", "/api/v1/agents/{agent_id}/lab/scenarios"): "user",
    ("PUT", "/api/v1/lab/scenarios/{scenario_id}"): "user",
    ("DELETE", "/api/v1/lab/scenarios/{scenario_id}"): "user",
    ("POST", "/api/v1/agents/{agent_id}/lab/starter"): "user",
    ("POST", "/api/v1/agents/{agent_id}/lab/runs"): "user",
    ("GET", "/api/v1/agents/{agent_id}/lab/runs"): "user",
    ("GET", "/api/v1/lab/runs/{run_id}"): "user",
    ("GET", "/api/v1/lab/runs/{run_id}/compare/{other_id}"): "user",
    ("GET", "/api/v1/agents/{agent_id}/versions"): "user",
    ("GET", "/api/v1/flows/{flow_id}/lab/scenarios"): "user",
    ("POST", "/api/v1/flows/{flow_id}/lab/scenarios"): "user",
    ("POST", "/api/v1/flows/{flow_id}/lab/starter"): "user",
    ("POST", "/api/v1/flows/{flow_id}/lab/runs"): "user",
    ("GET", "/api/v1/flows/{flow_id}/lab/runs"): "user",
    ("GET", "/api/v1/lab/results/{result_id}/call"): "user",
    ("GET", "/api/v1/lab/results/{result_id}/recording"): "user",
    ("GET", "/api/v1/do-not-call"): "user",
    ("POST", "/api/v1/do-not-call"): "user",
    ("POST", "/api/v1/do-not-call/import"): "user",
    ("GET", "/api/v1/do-not-call/export"): "user",
    ("DELETE", "/api/v1/do-not-call/{entry_id}"): "user",
    ("GET", "/api/v1/admin/do-not-call"): "admin",
    ("POST", "/api/v1/admin/do-not-call"): "admin",
    ("POST", "/api/v1/admin/do-not-call/import"): "admin",
    ("GET", "/api/v1/admin/do-not-call/export"): "admin",
    ("DELETE", "/api/v1/admin/do-not-call/{entry_id}"): "admin",
    ("POST", "/v1/batches"): "key",
    ("GET", "/v1/batches"): "key",
    ("GET", "/v1/batches/{batch_id}"): "key",
    ("POST", "/v1/batches/{batch_id}/stop"): "key",
    ("POST", "/v1/batches/{batch_id}/analyze"): "key",
    ("GET", "/v1/batches/{batch_id}/analysis"): "key",
    ("GET", "/api/v1/billing"): "user",
    ("POST", "/api/v1/billing/card-setups"): "user",
    ("POST", "/api/v1/billing/top-ups"): "user",
    ("POST", "/api/v1/billing/top-ups/{top_up_id}/confirm"): "user",
    ("GET", "/api/v1/billing/top-ups/{top_up_id}"): "user",
    ("GET", "/api/v1/billing/history"): "user",
    ("PUT", "/api/v1/billing/auto-recharge"): "user",
    ("DELETE", "/api/v1/billing/card"): "user",
    ("GET", "/api/v1/billing/history/export"): "user",
    ("GET", "/api/v1/admin/users/{user_id}/top-ups"): "admin",
    ("POST", "/api/v1/admin/top-ups/{top_up_id}/refund"): "admin",
    ("GET", "/api/v1/campaigns"): "user",
    ("POST", "/api/v1/campaigns"): "user",
    ("GET", "/api/v1/campaigns/{campaign_id}"): "user",
    ("PUT", "/api/v1/campaigns/{campaign_id}"): "user",
    ("GET", "/api/v1/campaigns/{campaign_id}/zones"): "user",
    ("POST", "/api/v1/campaigns/{campaign_id}/contacts"): "user",
    ("POST", "/api/v1/campaigns/{campaign_id}/{action}"): "user",
    ("GET", "/api/v1/campaigns/{campaign_id}/contacts"): "user",
    ("GET", "/api/v1/campaigns/{campaign_id}/export"): "user",
    ("GET", "/api/v1/admin/mail-outbox"): "admin",
    ("GET", "/api/v1/posts"): "public",
    ("GET", "/api/v1/posts/{post_id}"): "public",
    ("POST", "/api/v1/contact"): "public",
    ("POST", "/api/v1/enterprise"): "public",
    ("POST", "/api/v1/test-call"): "public",
    ("GET", "/api/v1/admin/test-call-task"): "admin",
    ("PUT", "/api/v1/admin/test-call-task"): "admin",
    ("GET", "/api/v1/admin/test-calls-today"): "admin",
    ("GET", "/api/v1/admin/test-calls-this-week"): "admin",
    ("GET", "/api/v1/admin/stats"): "admin",
    ("GET", "/api/v1/admin/analytics"): "admin",
    ("GET", "/api/v1/admin/top-users"): "admin",
    ("GET", "/api/v1/admin/users"): "admin",
    ("POST", "/api/v1/admin/add-user"): "admin",
    ("PUT", "/api/v1/admin/users/{user_id}"): "admin",
    ("DELETE", "/api/v1/admin/users/{user_id}"): "admin",
    ("PUT", "/api/v1/admin/users/{user_id}/balance"): "admin",
    ("GET", "/api/v1/admin/calls"): "admin",
    ("GET", "/api/v1/admin/reports"): "admin",
    ("GET", "/api/v1/admin/posts"): "admin",
    ("POST", "/api/v1/admin/posts"): "admin",
    ("GET", "/api/v1/admin/posts/{post_id}"): "admin",
    ("PUT", "/api/v1/admin/posts/{post_id}"): "admin",
    ("DELETE", "/api/v1/admin/posts/{post_id}"): "admin",
    ("GET", "/api/v1/admin/form-inbox"): "admin",
    ("GET", "/api/v1/admin/form-inbox/unread-count"): "admin",
    ("PATCH", "/api/v1/admin/form-submissions/{submission_id}/mark-as-read"): "admin",
    ("GET", "/api/v1/api-keys"): "user",
    ("POST", "/api/v1/api-keys"): "user",
    ("DELETE", "/api/v1/api-keys/{key_id}"): "user",
    ("GET", "/api/v1/webhook-endpoints"): "user",
    ("POST", "/api/v1/webhook-endpoints"): "user",
    ("PUT", "/api/v1/webhook-endpoints/{endpoint_id}"): "user",
    ("DELETE", "/api/v1/webhook-endpoints/{endpoint_id}"): "user",
    ("GET", "/api/v1/developers/signing-secret"): "user",
    ("POST", "/api/v1/developers/signing-secret/rotate"): "user",
    ("GET", "/api/v1/webhook-deliveries"): "user",
    ("GET", "/api/v1/webhook-deliveries/{delivery_id}"): "user",
    ("POST", "/api/v1/webhook-deliveries/{delivery_id}/resend"): "user",
    ("POST", "/v1/calls"): "key",
    ("GET", "/v1/calls"): "key",
    ("GET", "/v1/calls/{call_id}"): "key",
    ("POST", "/v1/calls/{call_id}/stop"): "key",
    ("GET", "/v1/calls/{call_id}/recording"): "key",
    ("GET", "/v1/recordings/{call_id}"): "key",
    ("GET", "/v1/voices"): "key",
    ("GET", "/v1/voices/{voice_id}"): "key",
    ("POST", "/v1/calls/{call_id}/analyze"): "key",
    ("GET", "/v1/pathway"): "key",
    ("POST", "/v1/agents/{agent_id}/tests/run"): "key",
    ("GET", "/v1/agents/{agent_id}/tests/runs/{run_id}"): "key",
    ("POST", "/v1/pathway/create"): "key",
    ("GET", "/v1/pathway/{pathway_id}"): "key",
    ("POST", "/v1/pathway/{pathway_id}"): "key",
    ("POST", "/v1/pathway/{pathway_id}/version"): "key",
    ("GET", "/v1/pathway/{pathway_id}/version/{version_id}"): "key",
    # Last of the pathway routes: the walk deletes the owner's pathway here.
    ("DELETE", "/v1/pathway/{pathway_id}"): "key",
    ("GET", "/api/v1/system/mode"): "user",
    ("GET", "/api/v1/system/sandbox-numbers"): "user",
    ("GET", "/api/v1/admin/system"): "admin",
}


def _walk(
    routes: list[Any], prefix: str, guards: list[Any]
) -> list[tuple[str, APIRoute, list[Any]]]:
    """Every APIRoute with its full path and the dependencies added by the routers it is
    included through (FastAPI keeps included routers as wrappers)."""
    out: list[tuple[str, APIRoute, list[Any]]] = []
    for route in routes:
        if isinstance(route, APIRoute):
            out.append((prefix + route.path, route, guards))
        elif (ctx := getattr(route, "include_context", None)) is not None:
            out += _walk(
                route.original_router.routes, prefix + ctx.prefix, guards + list(ctx.dependencies)
            )
    return out


def _calls(dependant: Dependant, target: Callable[..., Any]) -> bool:
    return dependant.call is target or any(_calls(d, target) for d in dependant.dependencies)


def _level_of(dependant: Dependant, extra: list[Any]) -> Level:
    if _calls(dependant, api_key_caller) or api_key_caller in extra:
        return "key"
    if _calls(dependant, admin_user) or admin_user in extra:
        return "admin"
    if _calls(dependant, current_user) or current_user in extra:
        return "user"
    return "public"


def _api_routes(app: FastAPI) -> list[tuple[str, str, Level]]:
    out: list[tuple[str, str, Level]] = []
    for path, route, guards in _walk(app.routes, "", []):
        if path.startswith(("/api/v1/", "/v1/")) and route.include_in_schema:
            level = _level_of(route.dependant, [g.dependency for g in guards])
            out.extend((method, path, level) for method in sorted(route.methods or ()))
    return out


async def test_every_route_is_declared_with_its_real_guard(app: FastAPI) -> None:
    found = {(m, p): level for m, p, level in _api_routes(app)}
    assert found == ROUTES, "declare new routes in ROUTES with the guard they must have"


def _concrete(path: str, ids: dict[str, int] | None = None) -> str:
    return re.sub(r"\{([^}]+)\}", lambda m: str((ids or {}).get(m.group(1), 1)), path)


async def test_walk_routes_as_anonymous_user_and_admin(app: FastAPI) -> None:
    await add_user(app, email="user@example.com")
    other = await add_user(app, email="other@example.com")
    await add_user(app, email="admin@example.com", role="admin")
    async with make_client(app) as anon, make_client(app) as user, make_client(app) as admin:
        await user.login("user@example.com")
        await admin.login("admin@example.com")
        for method, path, level in [(m, p, lv) for (m, p), lv in ROUTES.items() if lv != "key"]:
            if method == "POST" and path.endswith("/logout"):
                continue  # would end the session the walk uses; covered in test_auth_api
            # The admin's user routes act on "other" (deleting the walking user would end it).
            ids = {"user_id": other.id} if path.startswith("/api/v1/admin/") else {}
            url = _concrete(path, ids).removeprefix("/api/v1/")
            as_anon = await anon.api(method, url, json={})
            as_user = await user.api(method, url, json={})
            as_admin = await admin.api(method, url, json={})
            if level in ("user", "admin"):
                assert as_anon.status_code == 401, (method, path)
                assert as_anon.json()["message"] == "Unauthenticated."
            if level == "admin":
                assert as_user.status_code == 403, (method, path)
            for response in (as_user, as_admin) if level != "admin" else (as_admin,):
                assert response.status_code not in (401, 403), (method, path, response.text)


KEY_ROUTES = [(m, p) for (m, p), level in ROUTES.items() if level == "key"]


def _key_url(path: str, call_id: str, batch_id: str, flow_id: str, lab: tuple[str, str]) -> str:
    """A key route's path with the owner's objects' ids (version 1 of the flow; `lab`: an
    agent and a lab run of it)."""
    url = path.replace("{batch_id}", batch_id).replace("{voice_id}", "joe")
    url = url.replace("{agent_id}", lab[0]).replace("{run_id}", lab[1])
    url = url.replace("{pathway_id}", flow_id).replace("{version_id}", "1")
    return _concrete(url).replace("/1", f"/{call_id}") if "{call_id}" in url else url


async def test_key_routes_take_only_a_live_key_of_the_calls_owner(app: FastAPI) -> None:
    """Anonymous and dashboard sessions (admin too) get 401; user B's key on user A's call
    gets 404; a revoked key gets 401; the owner's key gets neither. Bland's error shape."""
    owner = await add_user(app, email="owner@example.com", balance_cents=10_000)
    other = await add_user(app, email="other@example.com")
    await add_user(app, email="admin@example.com", role="admin")
    call = await queued_call(app, owner.id)
    async with app.state.db.sessionmaker() as session:
        batch = Campaign(user_id=owner.id, name="A batch", call_settings={"prompt": "x" * 20})
        flow = Flow(user_id=owner.id, name="A flow", draft=BLANK.model_dump(mode="json"))
        agent = Agent(user_id=owner.id, name="An agent", prompt="x" * 20, voice="joe")
        session.add_all([batch, flow, agent])
        await session.flush()
        run = LabRun(user_id=owner.id, agent_id=agent.id, agent_settings={}, status="passed")
        session.add(run)
        session.add(FlowVersion(flow_id=flow.id, version=1, graph=flow.draft))
        flow.published_version = 1
        await session.commit()
    owner_key, other_key = await add_api_key(app, owner), await add_api_key(app, other)
    async with (
        make_client(app) as anon,
        make_client(app) as admin,
        make_client(app, headers={"authorization": owner_key}) as mine,
        make_client(app, headers={"authorization": other_key}) as theirs,
    ):
        await admin.login("admin@example.com")
        for method, path in KEY_ROUTES:
            # Two refusals a route count against this address's limit on requests without a
            # valid key (30 a minute, tests/public_api/test_v1_edges.py): a fresh minute each.
            await app.state.limiter.reset()
            url = _key_url(path, call.id, batch.id, flow.id, (agent.id, run.id))
            for client in (anon, admin):
                headers = {"Authorization": f"Bearer {client.token}"} if client.token else {}
                response = await client.request(method, url, json={}, headers=headers)
                assert response.status_code == 401, (method, path)
                assert response.json()["status"] == "error"
            as_owner = await mine.request(method, url, json={})
            assert as_owner.status_code not in (401, 403, 404) or path.endswith(
                ("/recording", "/recordings/{call_id}")
            ), (method, path, as_owner.text)
            if any(
                f"{{{name}}}" in path for name in ("call_id", "batch_id", "pathway_id", "agent_id")
            ):
                as_other = await theirs.request(method, url, json={})
                assert as_other.status_code == 404, (method, path)
                assert as_other.json()["status"] == "error"
        async with app.state.db.sessionmaker() as session:
            await session.execute(
                update(ApiKey).where(ApiKey.user_id == owner.id).values(revoked_at=utcnow())
            )
            await session.commit()
        # A fresh minute for the revoked key's walk too, so it meets the key check rather
        # than the address's limit.
        await app.state.limiter.reset()
        for method, path in KEY_ROUTES:
            url = _key_url(path, call.id, batch.id, flow.id, (agent.id, run.id))
            assert (await mine.request(method, url, json={})).status_code == 401, (method, path)


async def test_another_user_sees_only_their_own_profile(app: FastAPI) -> None:
    await add_user(app, email="a@example.com", name="A")
    await add_user(app, email="b@example.com", name="B")
    async with make_client(app) as a, make_client(app) as b:
        await a.login("a@example.com")
        await b.login("b@example.com")
        assert (await a.api("GET", "user/profile")).json()["data"]["name"] == "A"
        assert (await b.api("GET", "user/profile")).json()["data"]["name"] == "B"
        await b.api("PUT", "user/profile", json={"name": "B2"})
        assert (await a.api("GET", "user/profile")).json()["data"]["name"] == "A"


async def test_another_users_agent_is_out_of_reach(app: FastAPI) -> None:
    """Agents are owner only, for admins too: another user's id answers 404, never data."""
    await add_user(app, email="a@example.com")
    await add_user(app, email="b@example.com")
    await add_user(app, email="admin@example.com", role="admin")
    async with make_client(app) as a, make_client(app) as b, make_client(app) as admin:
        await a.login("a@example.com")
        await b.login("b@example.com")
        await admin.login("admin@example.com")
        body = {"name": "Mine", "prompt": "Say hello to {{name}} politely."}
        agent = (await a.api("POST", "agents", json=body)).json()["data"]
        for client in (b, admin):
            for method in ("GET", "PUT", "DELETE"):
                response = await client.api(method, f"agents/{agent['id']}", json=body)
                assert response.status_code == 404, (method, response.text)
                assert agent["id"] not in response.text
            assert (await client.api("GET", "agents")).json()["data"] == []
        assert (await a.api("GET", f"agents/{agent['id']}")).json()["data"]["name"] == "Mine"


def _methods(route: APIRoute | APIWebSocketRoute) -> set[str]:
    return set(route.methods or ()) if isinstance(route, APIRoute) else {"WEBSOCKET"}


async def test_no_path_is_matched_by_routes_of_two_routers() -> None:
    """create_app puts the busiest routers first; that is safe only while no request could be
    answered by routes of two routers (then the order picks nothing)."""
    from callwright.routers import HOT_FIRST_ROUTERS

    routes = [
        (index, route)
        for index, router in enumerate(HOT_FIRST_ROUTERS)
        for route in router.routes
        if isinstance(route, APIRoute | APIWebSocketRoute)
    ]
    assert len({index for index, _ in routes}) == len(HOT_FIRST_ROUTERS)
    clashes = []
    for index, route in routes:
        for value in ("1", "abc", "x-1", "profile"):
            concrete = re.sub(r"\{[^}]+\}", value, route.path)
            clashes += [
                (route.path, other.path)
                for other_index, other in routes
                if other_index != index
                and _methods(route) & _methods(other)
                and other.path_regex.match(concrete)
            ]
    assert clashes == []


async def test_api_keys_never_sign_in_to_the_dashboards_routes(app: FastAPI) -> None:
    """A `/v1` API key, live or revoked, raw or as a bearer token, is no sign-in anywhere under
    /api/v1: every signed-in route answers 401 to it."""
    owner = await add_user(app, email="keyholder@example.com", role="admin")
    live = await add_api_key(app, owner, "live")
    revoked = await add_api_key(app, owner, "revoked")
    async with app.state.db.sessionmaker() as session:
        await session.execute(
            update(ApiKey).where(ApiKey.name == "revoked").values(revoked_at=utcnow())
        )
        await session.commit()
    async with make_client(app) as anon:
        for (method, path), level in ROUTES.items():
            if level not in ("user", "admin"):
                continue
            url = _concrete(path).removeprefix("/api/v1/")
            for headers in (
                {"authorization": live},
                {"Authorization": f"Bearer {live}"},
                {"Authorization": f"Bearer {revoked}"},
            ):
                response = await anon.api(method, url, json={}, headers=headers)
                assert response.status_code == 401, (method, path, headers)


async def test_a_do_not_call_entry_is_its_lists_only(app: FastAPI) -> None:
    """Another user's entry, or a user's entry through the global list's route, is 404."""
    async with make_client(app) as owner, make_client(app) as other, make_client(app) as admin:
        await add_user(app, email="owner@example.com")
        await add_user(app, email="other@example.com")
        await add_user(app, email="admin@example.com", role="admin")
        await owner.login("owner@example.com")
        await other.login("other@example.com")
        await admin.login("admin@example.com")
        added = await owner.api("POST", "do-not-call", json={"phone_number": "+14155550100"})
        entry_id = added.json()["data"]["id"]
        for client, path in ((other, "do-not-call"), (admin, "admin/do-not-call")):
            gone = await client.api("DELETE", f"{path}/{entry_id}")
            assert gone.status_code == 404, gone.text
            listing = (await client.api("GET", path)).json()
            assert listing["data"] == []
        assert (await owner.api("GET", "do-not-call")).json()["pagination"]["total"] == 1
