"""Schemathesis over the app's own OpenAPI schema, in process (ASGI): every operation, signed
in where the route needs it (`/api/v1` as a user or an admin, `/v1` with the user's API keys),
through the examples, coverage (boundary values: huge integers, NUL characters, wrong types)
and fuzzing phases. Any 5xx fails. Bounded to run in about 20-30 s on 2 cores: a fixed seed, a
few fuzzed examples per operation, no shrinking.

The app under test is an instance of its own (schemathesis runs ASGI apps on an event loop in
a thread of its own). On SQLite it has a database file of its own, so nothing the session's
`app` left half-done can lock it; on PostgreSQL it adds its accounts to the test database (ids
and e-mails no other test uses), and the next test that uses `app` wipes what it left."""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx2
import pytest
import schemathesis
from alembic import command
from fastapi import FastAPI
from hypothesis import HealthCheck, Phase, settings
from schemathesis import Case
from schemathesis.checks import not_a_server_error, response_schema_conformance
from schemathesis.python import asgi

from callwright.auth import tokens
from callwright.cli import _alembic_config
from callwright.config import Settings
from callwright.developers.keys import new_key
from callwright.kit.db import Database
from callwright.kit.security import hash_password
from callwright.kit.time import utcnow
from callwright.main import create_app
from callwright.models import ApiKey, User
from tests.auth.fake_google import ISSUER, FakeGoogle
from tests.factories import DEFAULT_PASSWORD

#: Fuzzed examples per operation (the examples and coverage phases add their own cases). Set
#: CALLWRIGHT_FUZZ_EXAMPLES for a longer hunt (`CALLWRIGHT_FUZZ_EXAMPLES=200 pytest ...`).
FUZZED_EXAMPLES = int(os.environ.get("CALLWRIGHT_FUZZ_EXAMPLES", "8"))
#: Ids far from those generated data tends to hit (0, 1, 2 ...), so no fuzzed admin request
#: edits or deletes the accounts the run is signed in as.
ADMIN_ID, USER_ID, LEAVER_ID = 7_000_001, 7_000_002, 7_000_003
#: Operations that end the token they are sent with: each of their cases gets a fresh one.
#: API keys the `/v1` cases take turns with, so that no key reaches its rate limit (120 a
#: minute) and the later operations are fuzzed, not answered 429.
API_KEYS = 40
SCHEMA_ONLY_KEY = "schema-only-key-0123456789abcdefghijklmnop"
TOKEN_ENDING = {("POST", "/api/v1/logout"), ("PUT", "/api/v1/user/password")}


@dataclass
class Principals:
    settings: Settings
    admin: str
    user: str

    #: The user's API keys: the `/v1` routes take only those.
    keys: list[str] = field(default_factory=list)
    used: int = 0

    def token_for(self, case: Case[Any]) -> str:
        if case.path.startswith("/v1/"):
            self.used += 1
            return self.keys[self.used % len(self.keys)]
        if (case.method.upper(), case.path) in TOKEN_ENDING:
            return asyncio.run(_issue(self.settings, LEAVER_ID))
        return self.admin if case.path.startswith("/api/v1/admin/") else self.user


async def _issue(settings: Settings, user_id: int) -> str:
    db = Database(settings.database_url)
    try:
        async with db.sessionmaker() as session:
            token = await tokens.issue(session, user_id, ttl_minutes=60)
            await session.commit()
            return token
    finally:
        await db.dispose()


async def _seed(settings: Settings) -> tuple[str, str, list[str]]:
    db = Database(settings.database_url)
    try:
        async with db.sessionmaker() as session:
            password = hash_password(DEFAULT_PASSWORD)
            for user_id, role in ((ADMIN_ID, "admin"), (USER_ID, "user"), (LEAVER_ID, "user")):
                session.add(
                    User(
                        id=user_id,
                        name=f"Fuzz {role} {user_id}",
                        email=f"fuzz-{user_id}@example.com",
                        password_hash=password,
                        role=role,
                        balance_cents=500_000,
                        email_verified_at=utcnow(),
                    )
                )
            await session.flush()
            admin = await tokens.issue(session, ADMIN_ID, ttl_minutes=60)
            user = await tokens.issue(session, USER_ID, ttl_minutes=60)
            keys = []
            for _ in range(API_KEYS):
                key, prefix, key_hash = new_key()
                session.add(ApiKey(user_id=USER_ID, name="fuzz", prefix=prefix, key_hash=key_hash))
                keys.append(key)
            await session.commit()
            return admin, user, keys
    finally:
        await db.dispose()


@pytest.fixture(scope="module")
def fuzz_settings(
    migrated: Settings, tmp_path_factory: pytest.TempPathFactory, localstripe_base: str
) -> Settings:
    google = FakeGoogle(client_id="client-123.apps.googleusercontent.com", client_secret="shh")
    database_url = migrated.database_url
    if migrated.is_sqlite:
        database_url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.db'}"
        command.upgrade(
            _alembic_config(migrated.model_copy(update={"database_url": database_url})), "head"
        )
    return migrated.model_copy(
        update={
            "database_url": database_url,
            "google_client_id": google.client_id,
            "google_client_secret": google.client_secret,
            "google_metadata_url": f"{ISSUER}/.well-known/openid-configuration",
            # Card top-ups reach a real local Stripe emulator.
            "stripe_api_base": localstripe_base,
            "stripe_js_url": f"{localstripe_base}/js.stripe.com/v3/",
        }
    )


@pytest.fixture(scope="module")
def principals(fuzz_settings: Settings) -> Principals:
    admin, user, keys = asyncio.run(_seed(fuzz_settings))
    return Principals(fuzz_settings, admin, user, keys)


@pytest.fixture(scope="module")
def fuzz_app(fuzz_settings: Settings, principals: Principals) -> Iterator[FastAPI]:
    google = FakeGoogle(client_id=fuzz_settings.google_client_id, client_secret="shh")
    yield create_app(fuzz_settings, google_transport=httpx2.ASGITransport(app=google.app()))
    asgi.shutdown_lifespans()


def _openapi() -> dict[str, Any]:
    """The schema the code publishes now (the app is built, not started)."""
    built = create_app(
        Settings(
            env="test",
            secret_key=SCHEMA_ONLY_KEY,
            database_url=f"sqlite+aiosqlite:///{tempfile.gettempdir()}/never-opened.db",
        )
    )
    return built.openapi()


#: Loaded when the module is collected, so each operation is a test of its own. (Schemathesis'
#: lazy `from_fixture` reads a pytest attribute that pytest 9.2 no longer has.)
schema = schemathesis.openapi.from_dict(_openapi())
schema.config.generation.update(
    max_examples=FUZZED_EXAMPLES, deterministic=True, no_shrink=True, database="none"
)


@schema.parametrize()
@settings(
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_no_server_errors(case: Case[Any], fuzz_app: FastAPI, principals: Principals) -> None:
    case.call_and_validate(
        app=fuzz_app,
        headers={"Authorization": f"Bearer {principals.token_for(case)}"},
        checks=[not_a_server_error, response_schema_conformance],
    )


def _unbounded(node: Any, components: dict[str, Any], at: str, seen: set[str]) -> list[str]:
    """Where in a request's schema a number has no minimum or no maximum."""
    if isinstance(node, list):
        return [p for i, item in enumerate(node) for p in _unbounded(item, components, at, seen)]
    if not isinstance(node, dict):
        return []
    ref = node.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        if name in seen:
            return []
        return _unbounded(components[name], components, f"{at}:{name}", seen | {name})
    found = []
    if node.get("type") in ("integer", "number") and "enum" not in node:
        has_min = "minimum" in node or "exclusiveMinimum" in node
        has_max = "maximum" in node or "exclusiveMaximum" in node
        if not (has_min and has_max):
            found.append(at)
    for key, child in node.items():
        if key in ("properties", "items", "anyOf", "oneOf", "allOf", "additionalProperties"):
            if key == "properties":
                for name, prop in child.items():
                    found += _unbounded(prop, components, f"{at}.{name}", seen)
            else:
                found += _unbounded(child, components, at, seen)
    return found


def test_every_number_a_request_carries_is_bounded() -> None:
    """So the coverage phase above tries each one's largest value and the one past it, and no
    integer past what the database holds reaches a query (issue 15, finding 9b)."""
    document = _openapi()
    components = document.get("components", {}).get("schemas", {})
    unbounded = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            where = f"{method.upper()} {path}"
            for parameter in operation.get("parameters", []):
                unbounded += _unbounded(
                    parameter.get("schema", {}), components, f"{where} {parameter['name']}", set()
                )
            for media in operation.get("requestBody", {}).get("content", {}).values():
                unbounded += _unbounded(media.get("schema", {}), components, where, set())
    assert unbounded == []
