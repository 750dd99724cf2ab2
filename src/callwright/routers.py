"""The API's routers, in the order requests are matched against them, and how the app takes
them (`include_routers`, called by `main.create_app`)."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI, Request

from callwright import __version__
from callwright.account.endpoints import router as account_router
from callwright.admin.endpoints import router as admin_router
from callwright.agents.endpoints import router as agents_router
from callwright.agents.tool_endpoints import router as agent_tools_router
from callwright.auth.endpoints import router as auth_router
from callwright.billing.endpoints import router as billing_router
from callwright.calls.endpoints import router as calls_router
from callwright.calls.webhooks import router as webhooks_router
from callwright.campaigns.endpoints import router as campaigns_router
from callwright.compliance.endpoints import router as compliance_router
from callwright.config import Settings
from callwright.content.endpoints import admin_router as content_admin_router
from callwright.content.endpoints import router as content_router
from callwright.developers.endpoints import router as developers_router
from callwright.flows.endpoints import router as flows_router
from callwright.kit.errors import NotFound
from callwright.lab.endpoints import router as lab_router
from callwright.lab.public import router as lab_public_router
from callwright.public_api.analyze import router as analyze_router
from callwright.public_api.batch_analysis import router as batch_analysis_router
from callwright.public_api.batches import router as batches_router
from callwright.public_api.endpoints import router as public_api_router
from callwright.public_api.pathways import router as pathways_router
from callwright.sandbox.network import SandboxNetwork
from callwright.sandbox.network import install_error_handler as install_sandbox_errors
from callwright.system.endpoints import router as system_router
from callwright.voice_agent.media import router as media_router
from callwright.voices.endpoints import router as voices_router

API_PREFIX = "/api/v1"
#: The API's routers in the order requests are matched against them (see include_routers).
HOT_FIRST_ROUTERS = (
    calls_router,
    account_router,
    auth_router,
    voices_router,
    webhooks_router,
    media_router,
    content_router,
    content_admin_router,
    developers_router,
    admin_router,
    agents_router,
    compliance_router,
    campaigns_router,
    system_router,
    billing_router,
    agent_tools_router,
    flows_router,
    lab_router,
)
#: The Bland-compatible call API at the root (Bland's SDK joins its base URL and "v1/calls").
PUBLIC_ROUTERS = (
    public_api_router,
    batches_router,
    analyze_router,  # POST /v1/calls/{call_id}/analyze
    batch_analysis_router,  # POST /v1/batches/{batch_id}/analyze, GET .../analysis
    pathways_router,  # /v1/pathway (flows in Bland's shape)
    lab_public_router,  # /v1/agents/{agent_id}/tests (the agent lab for CI)
)


def include_routers(app: FastAPI, settings: Settings, network: SandboxNetwork | None) -> None:
    """Each router straight on the app, the busiest first. FastAPI matches a request by walking
    the included routers in order, every route of each, and a router nested in another is
    walked again at each level: two levels and the user area last cost 67 route matches and
    about a fifth of a call-log request's CPU. No path is matched by routes of two routers
    (tests/test_access.py checks), so the order changes nothing else."""
    for router in HOT_FIRST_ROUTERS:
        if router is not media_router or settings.host_calls:
            app.include_router(router, prefix=API_PREFIX)
    for router in PUBLIC_ROUTERS:
        app.include_router(router)
    app.include_router(_meta_router())
    app.include_router(_v1_not_supported())
    if network is not None:
        app.include_router(network.router)
        install_sandbox_errors(app)


#: What `/v1` answers for a path it does not have (in Bland's error shape: public_api/errors).
V1_NOT_SUPPORTED = "{method} /v1/{path} is not supported by Callwright. See docs/api.md for the supported endpoints."


def _v1_not_supported() -> APIRouter:
    """Any `/v1` path the API does not have, whatever the method: a 404 that says so (not the
    405 a POST met from the web app's catch-all, which reads as a wrong verb)."""
    v1 = APIRouter(prefix="/v1")

    @v1.api_route(
        "/{rest:path}",
        methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
        include_in_schema=False,
    )
    async def v1_not_supported(rest: str, request: Request) -> None:
        raise NotFound(V1_NOT_SUPPORTED.format(method=request.method, path=rest))

    return v1


def _meta_router() -> APIRouter:
    """`GET /api/v1/health`, and a JSON 404 for every other path under the API."""
    api = APIRouter(prefix=API_PREFIX)

    @api.get("/health", tags=["meta"])
    async def health() -> dict[str, str]:
        return {"status": "ok", "version": __version__}

    @api.api_route(
        "/{rest:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE"], include_in_schema=False
    )
    async def api_not_found(rest: str) -> None:
        raise NotFound("The requested endpoint does not exist.")

    return api
