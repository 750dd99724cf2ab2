"""An agent's custom tools (docs/actions.md, Tools): their shapes and checks, how they are kept
(header values sealed, never shown again; an edit that leaves a header's value out keeps it),
and how they go onto a call (`stored`: the call keeps its own copy, sealed the same way)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from jsonschema.exceptions import ValidationError as SchemaMismatch
from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.agents import repository
from callwright.developers.ssrf import TargetRefused, check_syntax
from callwright.kit.envelope import Envelope, Ok
from callwright.kit.errors import AppError, NotFound, ValidationFailed
from callwright.kit.security import seal, unseal
from callwright.models import Agent, AgentTool
from callwright.voice_agent.contract import TOOL_TIMEOUT, TOOL_TIMEOUT_MAX, WAITING_LINE, ToolSpec

#: A function's name as the models take it.
TOOL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$")
#: The built-in tools' names (the keypad's and the transfer's are their helpers').
RESERVED = ("end_call", "transfer", "press_digits")
#: An HTTP header's name (RFC 9110's token).
HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$")
#: The most tools one agent may have.
TOOLS_MAX = 20
HEADERS_MAX = 20
Method = Literal["GET", "POST", "PUT", "PATCH", "DELETE"]
EMPTY_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}}


def checked_parameters(value: dict[str, Any]) -> dict[str, Any]:
    """A JSON Schema whose type is "object" (the arguments are named)."""
    try:
        Draft202012Validator.check_schema(value)
    except SchemaError as exc:
        raise ValueError(f"The parameters are not a valid JSON Schema: {exc.message}") from None
    if value.get("type") != "object":
        raise ValueError('The parameters must be a JSON Schema of "type": "object".')
    return value


def checked_tool_name(value: str) -> str:
    value = value.strip()
    if not TOOL_NAME.match(value):
        raise ValueError(
            "A tool's name starts with a letter or underscore and has only letters, digits, "
            "underscores and dashes (at most 64)."
        )
    if value in RESERVED:
        raise ValueError(f'"{value}" is a built-in tool\'s name.')
    return value


def checked_tool_url(value: str) -> str:
    value = value.strip()
    try:
        check_syntax(value)
    except TargetRefused as exc:
        raise ValueError(str(exc)) from None
    return value


class ToolHeaderIn(BaseModel):
    name: str = Field(max_length=100)
    #: The value (a secret, sealed when kept). Left out on an edit: the value kept stays.
    value: str | None = Field(None, max_length=4000)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        value = value.strip()
        if not HEADER_NAME.match(value):
            raise ValueError(f'"{value}" is not a valid header name.')
        return value


class ToolIn(BaseModel):
    """A custom tool as the editor sends it (POST adds, PUT replaces)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=64)
    description: str = Field(min_length=1, max_length=1000)
    parameters: dict[str, Any] = Field(default_factory=lambda: dict(EMPTY_PARAMETERS))
    method: Method = "POST"
    url: str = Field(max_length=2048)
    headers: list[ToolHeaderIn] = Field(default_factory=list, max_length=HEADERS_MAX)
    #: A JSON body template; `{{input.NAME}}` takes an argument, `{{NAME}}` a call variable.
    body: dict[str, Any] | list[Any] | None = None
    timeout_seconds: float = Field(TOOL_TIMEOUT, gt=0, le=TOOL_TIMEOUT_MAX)
    waiting_line: str = Field(WAITING_LINE, max_length=300)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return checked_tool_name(value)

    @field_validator("url")
    @classmethod
    def _url(cls, value: str) -> str:
        return checked_tool_url(value)

    @field_validator("parameters")
    @classmethod
    def _parameters(cls, value: dict[str, Any]) -> dict[str, Any]:
        return checked_parameters(value)

    @field_validator("description", "waiting_line")
    @classmethod
    def _trimmed(cls, value: str) -> str:
        return value.strip()

    @field_validator("headers")
    @classmethod
    def _headers(cls, values: list[ToolHeaderIn]) -> list[ToolHeaderIn]:
        seen: set[str] = set()
        for header in values:
            if header.name.lower() in seen:
                raise ValueError(f'The header "{header.name}" is listed twice.')
            seen.add(header.name.lower())
        return values


class ToolHeaderOut(BaseModel):
    """A header of a kept tool: its name only (the value is a secret, never shown again)."""

    name: str
    #: Always true: a value is kept (sealed).
    set: bool = True


class ToolOut(BaseModel):
    id: int
    name: str
    description: str
    parameters: dict[str, Any]
    method: Method
    url: str
    headers: list[ToolHeaderOut]
    body: dict[str, Any] | list[Any] | None
    timeout_seconds: float
    waiting_line: str
    created_at: datetime
    updated_at: datetime


class ToolList(Ok[list[ToolOut]]):
    pass


class ToolSaved(Ok[ToolOut]):
    message: str


class ToolDeleted(Envelope):
    message: str


class ToolTestIn(BaseModel):
    """Sample arguments (checked against the tool's parameters) and call variables."""

    model_config = ConfigDict(extra="forbid")

    arguments: dict[str, Any] = Field(default_factory=dict)
    variables: dict[str, Any] = Field(default_factory=dict)


class ToolTestOut(BaseModel):
    """What the endpoint answered, as a call's tool call would have."""

    status: Literal["succeeded", "failed", "timed-out"]
    status_code: int | None
    latency_ms: int
    #: The answer's first characters.
    excerpt: str
    #: What went wrong (a refused target, an error status, the timeout).
    error: str | None


class ToolTestResponse(Ok[ToolTestOut]):
    pass


def tool_out(tool: AgentTool) -> ToolOut:
    return ToolOut(
        id=tool.id,
        name=tool.name,
        description=tool.description,
        parameters=tool.parameters,
        method=tool.method,
        url=tool.url,
        headers=[ToolHeaderOut(name=name) for name in tool.headers],
        body=tool.body,
        timeout_seconds=tool.timeout_seconds,
        waiting_line=tool.waiting_line,
        created_at=tool.created_at,
        updated_at=tool.updated_at,
    )


class TooManyTools(AppError):
    status_code = 422

    def __init__(self) -> None:
        super().__init__(f"An agent can have at most {TOOLS_MAX} tools.")


def sealed_headers(
    given: Sequence[ToolHeaderIn], kept: dict[str, str], secret_key: str
) -> dict[str, str]:
    """The headers to keep: each given value sealed; one left out keeps its kept value."""
    kept_by_name = {name.lower(): value for name, value in kept.items()}
    headers: dict[str, str] = {}
    for header in given:
        if header.value is not None:
            headers[header.name] = seal(secret_key, header.value)
        elif header.name.lower() in kept_by_name:
            headers[header.name] = kept_by_name[header.name.lower()]
        else:
            raise ValidationFailed({"headers": [f'The header "{header.name}" needs a value.']})
    return headers


async def owned_tool(session: AsyncSession, agent: Agent, tool_id: int) -> AgentTool:
    tool = await repository.tool(session, agent.id, tool_id)
    if tool is None:
        raise NotFound("Tool not found.")
    return tool


async def save(
    session: AsyncSession,
    agent: Agent,
    body: ToolIn,
    secret_key: str,
    tool: AgentTool | None = None,
) -> AgentTool:
    """Add `body` to the agent's tools, or replace `tool` with it."""
    existing = await repository.tools(session, agent.id)
    if tool is None and len(existing) >= TOOLS_MAX:
        raise TooManyTools()
    if any(t.name == body.name and t is not tool for t in existing):
        raise ValidationFailed({"name": [f'The agent already has a tool named "{body.name}".']})
    fields = body.model_dump(exclude={"headers"})
    fields["headers"] = sealed_headers(body.headers, tool.headers if tool else {}, secret_key)
    if tool is None:
        return await repository.add_tool(session, AgentTool(agent_id=agent.id, **fields))
    for name, value in fields.items():
        setattr(tool, name, value)
    await session.flush()
    await session.refresh(tool)
    return tool


def stored(tool: AgentTool) -> dict[str, Any]:
    """The tool as a call keeps it (header values still sealed)."""
    return {
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.parameters,
        "method": tool.method,
        "url": tool.url,
        "headers": dict(tool.headers),
        "body": tool.body,
        "timeout_seconds": tool.timeout_seconds,
        "waiting_line": tool.waiting_line,
    }


def spec(kept: dict[str, Any], secret_key: str) -> ToolSpec:
    """A kept tool (an agent's, or a call's copy) as the voice agent calls it: its header
    values opened (one sealed with another key is left out)."""
    headers = {
        name: value
        for name, sealed in (kept.get("headers") or {}).items()
        if (value := unseal(secret_key, sealed)) is not None
    }
    return ToolSpec(
        name=kept["name"],
        description=kept.get("description") or "",
        parameters=kept.get("parameters") or EMPTY_PARAMETERS,
        url=kept["url"],
        method=kept.get("method") or "POST",
        headers=headers,
        body=kept.get("body"),
        timeout_seconds=float(kept.get("timeout_seconds") or TOOL_TIMEOUT),
        waiting_line=kept.get("waiting_line") or "",
    )


def checked_arguments(parameters: dict[str, Any], arguments: dict[str, Any]) -> None:
    """ValidationFailed when the sample arguments do not fit the tool's parameters."""
    try:
        Draft202012Validator(parameters).validate(arguments)
    except SchemaMismatch as exc:
        where = ".".join(str(p) for p in exc.absolute_path)
        message = f"{where}: {exc.message}" if where else exc.message
        raise ValidationFailed({"arguments": [message]}) from None
