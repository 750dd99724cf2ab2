"""The live events in the API's OpenAPI document, beside the REST shapes: each message's model
(`realtime.events`) as a component, and `LiveEvents`, the emitted events by name. The web app
generates its socket types from them (`npm run gen:api`), and the test command's drift check
covers them with the REST types."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic.json_schema import models_json_schema

from callwright.realtime.events import EMITTED, MESSAGES

REF = "#/components/schemas/{model}"
#: The component that maps each emitted event's name to its payload.
EVENTS_COMPONENT = "LiveEvents"


def event_schemas() -> dict[str, Any]:
    """The components the live events add (with the shared ones they use: `CallOutcome`, ...)."""
    _, top = models_json_schema(
        [(model, "serialization") for model in MESSAGES.values()], ref_template=REF
    )
    components: dict[str, Any] = top["$defs"]
    components[EVENTS_COMPONENT] = {
        "title": EVENTS_COMPONENT,
        "description": "What each socket.io event that the server emits carries, by its name.",
        "type": "object",
        "properties": {
            name: {"$ref": REF.format(model=model.__name__)} for name, model in EMITTED.items()
        },
        "required": sorted(EMITTED),
        "additionalProperties": False,
    }
    return components


def document_events(app: FastAPI) -> None:
    """Add the live events to `app.openapi()`. A component the REST API already has under the
    same name (`TranscriptLine`, `CallOutcome`, ...) must be the same schema."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        document = build()
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        for name, schema in event_schemas().items():
            if schemas.setdefault(name, schema) != schema:
                raise RuntimeError(f"the live events' {name} is not the API's {name}")
        return document

    app.openapi = openapi  # type: ignore[method-assign]
