"""The flows API's shapes (docs/flows.md). The graph itself is `voice_agent.flow_graph`'s
`FlowGraph`, shared with the flow runner and the editor."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from callwright.kit.envelope import Ok, Paged
from callwright.kit.validation import Label
from callwright.voice_agent.flow_graph import EXPORT_FORMAT, FlowGraph, Problem

NAME_MAX = 80
DESCRIPTION_MAX = 500
#: The starters' keys (each a file in flows/starters/).
STARTER_KEYS = ("appointment", "lead_qualification", "payment_reminder", "survey")


def _description(value: str | None) -> str:
    return (value or "").strip()


FlowName = Annotated[Label, Field(max_length=NAME_MAX)]
Description = Annotated[str | None, Field(max_length=DESCRIPTION_MAX), AfterValidator(_description)]


class FlowCreate(BaseModel):
    """A new flow: blank (neither `starter` nor `graph`), from a starter, or from a graph."""

    model_config = ConfigDict(extra="forbid")

    name: FlowName
    description: Description = ""
    #: One of GET /flows/starters' keys.
    starter: str | None = Field(None, max_length=40)
    graph: FlowGraph | None = None

    @field_validator("starter")
    @classmethod
    def _starter(cls, value: str | None) -> str | None:
        if value is not None and value not in STARTER_KEYS:
            raise ValueError(f"The starter must be one of: {', '.join(STARTER_KEYS)}.")
        return value

    @field_validator("graph")
    @classmethod
    def _one_source(cls, value: FlowGraph | None, info: ValidationInfo) -> FlowGraph | None:
        if value is not None and info.data.get("starter") is not None:
            raise ValueError("Give a starter or a graph, not both.")
        return value


class FlowUpdate(BaseModel):
    """The flow's name, description and draft, saved as they are (problems and all)."""

    model_config = ConfigDict(extra="forbid")

    name: FlowName
    description: Description = ""
    draft: FlowGraph


class FlowExport(BaseModel):
    """A flow as a JSON file (GET /flows/{id}/export; POST /flows/import takes it back)."""

    model_config = ConfigDict(extra="forbid")

    format: str = Field(EXPORT_FORMAT, max_length=40)
    name: FlowName
    description: Description = ""
    graph: FlowGraph

    @field_validator("format")
    @classmethod
    def _format(cls, value: str) -> str:
        if value != EXPORT_FORMAT:
            raise ValueError(
                f"The format must be '{EXPORT_FORMAT}' (a flow file exported by Callwright)."
            )
        return value


class FlowStarter(BaseModel):
    key: str
    name: str
    description: str


class FlowSummary(BaseModel):
    """A flow in the list."""

    id: str
    name: str
    description: str
    #: The newest published version's number; null before the first publish.
    published_version: int | None
    #: The draft differs from the published version (true before the first publish).
    has_unpublished_changes: bool
    node_count: int
    created_at: datetime
    updated_at: datetime


class FlowOut(BaseModel):
    id: str
    name: str
    description: str
    draft: FlowGraph
    #: What keeps the draft from being published (empty: it can be).
    problems: list[Problem]
    published_version: int | None
    has_unpublished_changes: bool
    created_at: datetime
    updated_at: datetime


class FlowVersionSummary(BaseModel):
    version: int
    published_at: datetime
    node_count: int


class FlowVersionOut(BaseModel):
    version: int
    published_at: datetime
    graph: FlowGraph


class FlowId(BaseModel):
    id: str


class FlowsPage(Paged[FlowSummary]):
    pass


class FlowStarters(Ok[list[FlowStarter]]):
    pass


class FlowResponse(Ok[FlowOut]):
    pass


class FlowSaved(Ok[FlowOut]):
    message: str


class FlowVersionsPage(Paged[FlowVersionSummary]):
    pass


class FlowVersionResponse(Ok[FlowVersionOut]):
    pass


class FlowDeleted(Ok[FlowId]):
    message: str
