"""Shapes of the public content API, with the spec's field names and messages."""

from __future__ import annotations

import math
import re
from datetime import datetime
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
    field_validator,
)

from callwright.kit.bounds import AnyMoment
from callwright.kit.envelope import Envelope, Ok
from callwright.kit.pagination import Pagination
from callwright.kit.phone import ContactPhone, TestCallNumber
from callwright.kit.validation import normalize_email

#: Enterprise website: http(s)://, a host of dotted labels, an optional port and path.
WEBSITE_RE = re.compile(
    r"^https?://([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}(:\d{1,5})?(/\S*)?$"
)
MIN_CALLS_PER_MONTH = 25
MAX_CALLS_PER_MONTH = 1_000_000_000
TEST_CALL_PROMPT_MAX = 1000


def _required(value: str, message: str) -> str:
    value = value.strip()
    if not value:
        raise ValueError(message)
    return value


def _email(value: str) -> str:
    return normalize_email(_required(value, "Email is required"))


def required(message: str) -> AfterValidator:
    """Trimmed, and not empty (else `message`)."""
    return AfterValidator(lambda value: _required(value, message))


def _calls_per_month(value: object) -> int:
    if value is None or (isinstance(value, str) and not value.strip()):
        raise ValueError("Phone calls are required")
    if isinstance(value, bool):
        raise ValueError("Must be a whole number")
    if isinstance(value, str):
        if not value.strip().isdigit():
            raise ValueError("Must be a whole number")
        number = int(value.strip())
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value):
        number = math.floor(value)  # the client floors before sending
    else:
        raise ValueError("Must be a whole number")
    if number < MIN_CALLS_PER_MONTH:
        raise ValueError("Must be at least 25 calls")
    if number > MAX_CALLS_PER_MONTH:
        raise ValueError("Must be a whole number")
    return number


#: The public forms' fields (empty by default, so a missing field gets the spec's message).
FormEmail = Annotated[str, Field(max_length=320), AfterValidator(_email)]
FormMessage = Annotated[str, Field(max_length=5000), required("Message is required")]
#: Required (a missing or null value gets "Phone calls are required"); always an int once valid.
CallsPerMonth = Annotated[
    int | None,
    BeforeValidator(_calls_per_month),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer", "minimum": MIN_CALLS_PER_MONTH, "maximum": MAX_CALLS_PER_MONTH},
                {"type": "null"},
            ]
        }
    ),
]


class SignInProviders(BaseModel):
    #: Google sign-in is configured (CALLWRIGHT_GOOGLE_CLIENT_ID and _SECRET).
    google: bool


class ClientConfig(BaseModel):
    """What the web app needs before anyone signs in."""

    sign_in: SignInProviders
    #: The country a phone number written without "+" is read in (CALLWRIGHT_DEFAULT_REGION).
    phone_region: str
    #: The longest a free test call lasts, in minutes (CALLWRIGHT_TEST_CALL_MAX_MINUTES): what
    #: the landing page promises is what the call is given.
    test_call_max_minutes: int


class TestCallIn(BaseModel):
    model_config = ConfigDict(validate_default=True)

    #: E.164 once validated (kit.phone), before the per-number limit counts it.
    phone_number: Annotated[TestCallNumber, Field(max_length=64)] = ""


class ContactIn(BaseModel):
    model_config = ConfigDict(validate_default=True)

    email: FormEmail = ""
    phone: Annotated[ContactPhone, Field(max_length=32)] = ""
    message: FormMessage = ""


class EnterpriseIn(BaseModel):
    model_config = ConfigDict(validate_default=True)

    name: str = Field("", max_length=1000)
    email: FormEmail = ""
    website: str = Field("", max_length=2048)
    use_case: Annotated[str, Field(max_length=5000), required("Use case is required")] = ""
    phone_calls_per_month: CallsPerMonth = None
    entity_type: str = ""
    message: FormMessage = ""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        value = _required(value, "Name is required")
        if len(value) > 255:
            raise ValueError("Name must be 255 characters or less")
        return value

    @field_validator("website")
    @classmethod
    def _website(cls, value: str) -> str:
        value = _required(value, "Website is required")
        if not WEBSITE_RE.match(value):
            raise ValueError("Invalid URL format (must start with http:// or https://)")
        return value

    @field_validator("entity_type")
    @classmethod
    def _entity(cls, value: str) -> str:
        if value not in ("agency", "individual"):
            raise ValueError("Please select an option")
        return value


class Done(Envelope):
    message: str


class TestCallOut(Envelope):
    message: str
    callId: str
    #: Lets this browser's socket watch the call (`auth: {visitor, callId}`); until it ends.
    viewerToken: str


class PostOut(BaseModel):
    id: int
    title: str
    description: str
    content: str
    admin_name: str | None
    post_date: datetime
    created_at: datetime
    updated_at: datetime


class PostsData(BaseModel):
    posts: list[PostOut]
    pagination: Pagination


class PostsPage(Ok[PostsData]):
    pass


class PostResponse(Ok[PostOut]):
    pass


class TestCallTask(BaseModel):
    task: str


class TestCallTaskOut(Ok[TestCallTask]):
    pass


class TestCallTaskIn(BaseModel):
    model_config = ConfigDict(validate_default=True)

    task: str = Field("", max_length=20_000)

    @field_validator("task")
    @classmethod
    def _task(cls, value: str) -> str:
        value = value.strip()
        if not value or len(value) > TEST_CALL_PROMPT_MAX:
            raise ValueError("Prompt message is required and must not exceed 1000 characters.")
        return value


class TodayCount(BaseModel):
    test_calls_today: int


class WeekCount(BaseModel):
    test_calls_this_week: int


class TodayOut(Ok[TodayCount]):
    pass


class WeekOut(Ok[WeekCount]):
    pass


FormType = Literal["contact", "enterprise"]


class PostIn(BaseModel):
    """A post as the admin editor sends it. `content` is sanitised before it is stored."""

    model_config = ConfigDict(validate_default=True)

    title: Annotated[str, Field(max_length=255), required("Title is required")] = ""
    description: Annotated[str, Field(max_length=5000), required("Description is required")] = ""
    content: Annotated[str, Field(max_length=500_000), required("Content is required")] = ""
    admin_name: Annotated[str | None, Field(max_length=255)] = None
    post_date: AnyMoment | None = None


class PostSaved(PostResponse):
    message: str


class SubmissionOut(BaseModel):
    id: int
    form_type: str
    email: str
    phone: str | None
    message: str
    name: str | None
    website: str | None
    use_case: str | None
    phone_calls_per_month: int | None
    entity_type: str | None
    created_at: datetime
    is_readed: bool


class InboxPage(Envelope):
    data: list[SubmissionOut]
    pagination: Pagination
    unread: int


class SubmissionRead(Ok[SubmissionOut]):
    message: str


class UnreadCount(BaseModel):
    unread: int


class UnreadOut(Ok[UnreadCount]):
    pass
