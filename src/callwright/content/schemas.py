"""Shapes of the public content API, with the spec's field names and messages."""

from __future__ import annotations

import math
import re
from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from callwright.kit.pagination import Pagination
from callwright.kit.validation import normalize_email

#: Landing test-call phone: optional plus, a non-zero first digit, 1 to 14 more digits.
TEST_CALL_PHONE_RE = re.compile(r"^\+?[1-9]\d{1,14}$")
#: Subscribe form phone: optional leading plus, then digits, spaces or hyphens.
CONTACT_PHONE_RE = re.compile(r"^\+?[\d\s-]+$")
#: Enterprise website: http(s)://, a host of dotted labels, an optional port and path.
WEBSITE_RE = re.compile(
    r"^https?://([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}(:\d{1,5})?(/\S*)?$"
)
MIN_CALLS_PER_MONTH = 25
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
    if number > 1_000_000_000:
        raise ValueError("Must be a whole number")
    return number


#: The public forms' fields (empty by default, so a missing field gets the spec's message).
FormEmail = Annotated[str, Field(max_length=320), AfterValidator(_email)]
FormMessage = Annotated[str, Field(max_length=5000), required("Message is required")]
#: Required (a missing or null value gets "Phone calls are required"); always an int once valid.
CallsPerMonth = Annotated[int | None, BeforeValidator(_calls_per_month)]


class TestCallIn(BaseModel):
    model_config = ConfigDict(validate_default=True)

    phone_number: str = Field("", max_length=64)

    @field_validator("phone_number")
    @classmethod
    def _phone(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("Please enter a phone number.")
        if not TEST_CALL_PHONE_RE.match(value):
            raise ValueError("Please enter a valid phone number (e.g., +1234567890).")
        return value if value.startswith("+") else f"+{value}"


class ContactIn(BaseModel):
    model_config = ConfigDict(validate_default=True)

    email: FormEmail = ""
    phone: str = Field("", max_length=32)
    message: FormMessage = ""

    @field_validator("phone")
    @classmethod
    def _phone(cls, value: str) -> str:
        value = _required(value, "Phone number is required")
        if not CONTACT_PHONE_RE.match(value):
            raise ValueError("Invalid phone number format")
        return value


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


class Done(BaseModel):
    success: bool = True
    message: str


class TestCallOut(BaseModel):
    success: bool = True
    message: str
    callId: str


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


class PostsPage(BaseModel):
    success: bool = True
    data: PostsData


class PostResponse(BaseModel):
    success: bool = True
    data: PostOut


class TestCallTask(BaseModel):
    task: str


class TestCallTaskOut(BaseModel):
    success: bool = True
    data: TestCallTask


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


class TodayOut(BaseModel):
    success: bool = True
    data: TodayCount


class WeekOut(BaseModel):
    success: bool = True
    data: WeekCount


FormType = Literal["contact", "enterprise"]


class PostIn(BaseModel):
    """A post as the admin editor sends it. `content` is sanitised before it is stored."""

    model_config = ConfigDict(validate_default=True)

    title: Annotated[str, Field(max_length=255), required("Title is required")] = ""
    description: Annotated[str, Field(max_length=5000), required("Description is required")] = ""
    content: Annotated[str, Field(max_length=500_000), required("Content is required")] = ""
    admin_name: Annotated[str | None, Field(max_length=255)] = None
    post_date: datetime | None = None


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


class InboxPage(BaseModel):
    success: bool = True
    data: list[SubmissionOut]
    pagination: Pagination
    unread: int


class SubmissionRead(BaseModel):
    success: bool = True
    message: str
    data: SubmissionOut


class UnreadCount(BaseModel):
    unread: int


class UnreadOut(BaseModel):
    success: bool = True
    data: UnreadCount
