"""Phone numbers at the edge: every number a request or the CLI gives is read here once, with
`phonenumbers`, and kept in E.164 (`+15551230000`) from then on. So every rule and limit that
follows (the per-number test-call limit, the sandbox's number plan, the carrier) sees one
spelling per number: written in Arabic-Indic, Devanagari or full-width digits, "+15551230000"
is the same number, and a number no country could have is refused.

Numbers are tidied, not refused for their punctuation: "+1 555 123 0000", "(555) 123-0000",
"555.123.0000" and "0044 20 7946 0000" are read as people write them. A number written without
"+" is read in the default region (CALLWRIGHT_DEFAULT_REGION, set for each request by
`PhoneRegion`), and failing that as digits after "+" (the landing page's rule: "447911123456").

Each form keeps the spec's own rule and messages (docs/security.md, "Phone numbers"):

- `DialNumber`: the send-call phone (and `callwright call --to`);
- `TestCallNumber`: the landing page's free test call;
- `ContactPhone`: the subscribe/contact form's phone, a detail for a person to read, not a
  number we dial: digits folded to ASCII, E.164 when it is written with its country code.

**The number policy** (`refusal`, `dialable`): one rule for every number that may be dialled
(Send Call, the test call, `/v1/calls`, batches, campaign contacts, `CallService.place` for
whatever else places a call, and later an agent's transfer numbers). Emergency numbers,
premium-rate and shared-cost numbers are never called, and neither is a number no country
assigns (`phonenumbers.is_valid_number`). The carrier's own test numbers are the exception to
the last rule only: on the sandbox carrier its number plan (`+15551230000`, `+15005550008`...)
is callable though no country has it. Which carrier serves the request is set per request,
like the region (`PhoneRegion`), or passed to the functions by callers outside a request.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from contextvars import ContextVar
from typing import Annotated

import phonenumbers
from phonenumbers import PhoneNumberType
from pydantic import AfterValidator
from starlette.types import ASGIApp, Receive, Scope, Send

#: Spec (user area, section 5): send-call phone.
DIAL_EMPTY = "Phone number cannot be empty"
DIAL_FORMAT = 'Phone number must start with "+" followed by 10-15 digits (e.g., +15551234567)'
#: Spec: landing test-call phone.
TEST_CALL_EMPTY = "Please enter a phone number."
TEST_CALL_FORMAT = "Please enter a valid phone number (e.g., +1234567890)."
#: Spec: subscribe/contact form phone.
CONTACT_EMPTY = "Phone number is required"
CONTACT_FORMAT = "Invalid phone number format"

# ASCII digits only: Python's `\d` also matches every other script's digits.
_DIAL_RE = re.compile(r"\+[0-9]{10,15}", re.ASCII)
_TEST_CALL_RE = re.compile(r"\+?[1-9][0-9]{1,14}", re.ASCII)
_CONTACT_RE = re.compile(r"\+?[0-9 \t-]+", re.ASCII)
_FULLWIDTH_PLUS = "\uff0b"
#: What people put between a number's digits: spaces, brackets, dots, hyphens, slashes.
_PUNCTUATION_RE = re.compile(r"[\s().\-/]")

#: Why the number policy refuses a number (the same words in a form, the API and a CSV
#: file's report).
EMERGENCY = "An emergency number."
BAD_NUMBER = "Not a valid phone number."
PREMIUM = "A premium-rate number."
SHARED_COST = "A shared-cost number."
#: Number types that are never dialled: the caller or the callee would pay a surcharge.
_SURCHARGED = {PhoneNumberType.PREMIUM_RATE: PREMIUM, PhoneNumberType.SHARED_COST: SHARED_COST}

#: Tells whether an E.164 number is one of the carrier's own test numbers (the sandbox's plan).
TestNumbers = Callable[[str], bool]

#: The region numbers without "+" are read in, for the request being served.
_REGION: ContextVar[str] = ContextVar("callwright_phone_region", default="US")
#: The carrier's test numbers, for the request being served (None: the carrier has none).
_TEST_NUMBERS: ContextVar[TestNumbers | None] = ContextVar(
    "callwright_phone_test_numbers", default=None
)


def default_region() -> str:
    return _REGION.get()


def carrier_test_numbers() -> TestNumbers | None:
    return _TEST_NUMBERS.get()


class PhoneRegion:
    """Pure ASGI middleware: the numbers each request gives are read in `region`
    (CALLWRIGHT_DEFAULT_REGION), and `test_numbers` are the carrier's own test numbers (the
    sandbox's plan; None for a real carrier); the request validators have no settings of
    their own."""

    def __init__(self, app: ASGIApp, region: str, test_numbers: TestNumbers | None = None) -> None:
        self.app = app
        self.region = region
        self.test_numbers = test_numbers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        token = _REGION.set(self.region)
        numbers = _TEST_NUMBERS.set(self.test_numbers)
        try:
            await self.app(scope, receive, send)
        finally:
            _TEST_NUMBERS.reset(numbers)
            _REGION.reset(token)


#: No country's emergency number is longer (libphonenumber's short-number data: 6 digits).
_EMERGENCY_DIGITS_MAX = 6
_COUNTRY_CODE_DIGITS_MAX = 3


class NumberRefused(ValueError):
    """A number the policy does not dial; `reason` says why (EMERGENCY, BAD_NUMBER, ...)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def emergency(written: str, region: str | None = None) -> bool:
    """Whether `written`, as the caller wrote it, is an emergency number in `region` (the
    request's default region when None) or, in international form, in its own country."""
    text = _PUNCTUATION_RE.sub("", fold_digits(written.strip()))
    if not text:
        return False
    if text.startswith(("+", "00")):
        digits = text.removeprefix("+").removeprefix("00")
        if len(digits) > _COUNTRY_CODE_DIGITS_MAX + _EMERGENCY_DIGITS_MAX:
            return False  # a whole number, not a short code: no need to parse it
        try:
            number = phonenumbers.parse("+" + digits, None)
        except phonenumbers.NumberParseException:
            return False
        return _emergency(number)
    return phonenumbers.is_emergency_number(text, region or default_region())


def _emergency(number: phonenumbers.PhoneNumber) -> bool:
    """Whether `number` is an emergency number of a country its country code serves ("+44 112"
    or "+1 911"; a whole subscriber number never is, so that is not asked)."""
    national = phonenumbers.national_significant_number(number)
    if len(national) > _EMERGENCY_DIGITS_MAX:
        return False
    regions = phonenumbers.region_codes_for_country_code(number.country_code or 0)
    return any(phonenumbers.is_emergency_number(national, region) for region in regions)


def refusal(
    number: str | phonenumbers.PhoneNumber,
    *,
    written: str | None = None,
    region: str | None = None,
    test_numbers: TestNumbers | None = None,
) -> str | None:
    """Why the number policy refuses to dial `number` (E.164, or parsed already), or None when
    it may be dialled. `written`: the number as the caller wrote it (an emergency number such
    as "911" is caught on that text, as no whole number can hold it); `region`: where that
    text is read; `test_numbers`: the carrier's own test numbers, callable though no country
    assigns them (None: the request's carrier's, `PhoneRegion`)."""
    if written is not None and emergency(written, region):
        return EMERGENCY
    if isinstance(number, str):
        try:
            parsed = phonenumbers.parse(number, None)
        except phonenumbers.NumberParseException:
            return BAD_NUMBER
    else:
        parsed = number
    if _emergency(parsed):
        return EMERGENCY
    own = test_numbers if test_numbers is not None else carrier_test_numbers()
    if own is not None and own(
        phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)
    ):
        return None
    if not phonenumbers.is_valid_number(parsed):
        return BAD_NUMBER
    return _SURCHARGED.get(phonenumbers.number_type(parsed))


def dialable(
    number: str,
    *,
    written: str | None = None,
    region: str | None = None,
    test_numbers: TestNumbers | None = None,
) -> str:
    """`number` (E.164) when the number policy lets it be dialled; NumberRefused otherwise
    (`refusal` for the arguments). For every number a call may ring: a callee's, and an
    agent's transfer number."""
    reason = refusal(number, written=written, region=region, test_numbers=test_numbers)
    if reason is not None:
        raise NumberRefused(reason)
    return number


def fold_digits(value: str) -> str:
    """`value` with every decimal digit of any script as its ASCII digit and a full-width plus
    as "+". Other characters stay as they are (superscripts and circled digits are not
    decimal digits, so they stay, and the rules below refuse them)."""
    if value.isascii():
        return value
    folded = (str(unicodedata.decimal(c)) if c.isdecimal() else c for c in value)
    return "".join(folded).replace(_FULLWIDTH_PLUS, "+")


def e164(text: str) -> str | None:
    """`text` ("+" then ASCII digits) as E.164, or None when no number can be written so (an
    unknown country code, or too few or too many digits for the country)."""
    try:
        number = phonenumbers.parse(text, None)
    except phonenumbers.NumberParseException:
        return None
    # A number possible only when dialled locally (seven NANP digits) is not a whole number.
    reason = phonenumbers.is_possible_number_with_reason(number)
    if reason != phonenumbers.ValidationResult.IS_POSSIBLE:
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def tidy(value: str, region: str | None = None) -> str | None:
    """A number as people write it ("+1 555 123 0000", "(555) 123-0000"), in E.164, or None
    when it is no whole number. Without "+" (or "00") it is read in `region` (the request's
    default region when None), then as the digits after "+"."""
    compact = _PUNCTUATION_RE.sub("", fold_digits(value.strip()))
    if compact.startswith("00"):
        compact = "+" + compact[2:]
    if compact.startswith("+"):
        return e164(compact) if _DIAL_RE.fullmatch(compact) else None
    if not (compact.isascii() and compact.isdigit()):
        return None
    try:
        national = phonenumbers.parse(compact, region or default_region())
    except phonenumbers.NumberParseException:
        national = None
    if (
        national is not None
        and phonenumbers.is_possible_number_with_reason(national)
        == phonenumbers.ValidationResult.IS_POSSIBLE
    ):
        return phonenumbers.format_number(national, phonenumbers.PhoneNumberFormat.E164)
    international = "+" + compact
    return e164(international) if _DIAL_RE.fullmatch(international) else None


def dial_number(
    value: str, region: str | None = None, test_numbers: TestNumbers | None = None
) -> str:
    """The send-call phone, tidied to E.164 (`tidy`), with the spec's messages for an empty
    one and for one that is no number; then held to the number policy (NumberRefused)."""
    if not value.strip():
        raise ValueError(DIAL_EMPTY)
    if emergency(value, region):
        raise NumberRefused(EMERGENCY)
    number = tidy(value, region)
    if number is None:
        raise ValueError(DIAL_FORMAT)
    return dialable(number, written=value, region=region, test_numbers=test_numbers)


#: A list's number (do-not-call): international form, separators allowed.
LIST_NUMBER_FORMAT = (
    'Enter the number in international form, starting with "+" (e.g., +15551234567).'
)
_SEPARATORS_RE = re.compile(r"[\s().-]")


def list_number(value: str) -> str:
    """A number on a list (do-not-call), as people write them: "+1 (555) 123-4567" is
    +15551234567. International form only: a national number names no country."""
    value = _SEPARATORS_RE.sub("", fold_digits(value.strip()))
    number = e164(value) if _DIAL_RE.fullmatch(value) else None
    if number is None:
        raise ValueError(LIST_NUMBER_FORMAT)
    return number


def landing_number(value: str, test_numbers: TestNumbers | None = None) -> str:
    """The landing test-call phone, tidied to E.164 (`tidy`): at most 15 digits, as the spec's
    pattern (an optional plus, a non-zero first digit, 1 to 14 more digits) allows."""
    if not value.strip():
        raise ValueError(TEST_CALL_EMPTY)
    if emergency(value):
        raise NumberRefused(EMERGENCY)
    number = tidy(value)
    if number is None or not _TEST_CALL_RE.fullmatch(number):
        raise ValueError(TEST_CALL_FORMAT)
    return dialable(number, written=value, test_numbers=test_numbers)


def contact_phone(value: str) -> str:
    """The contact form's phone: an optional plus, then digits, spaces or hyphens. In E.164
    when it starts with "+" and is a possible number; otherwise as typed, digits in ASCII."""
    value = fold_digits(value.strip())
    if not value:
        raise ValueError(CONTACT_EMPTY)
    if not _CONTACT_RE.fullmatch(value):
        raise ValueError(CONTACT_FORMAT)
    if value.startswith("+"):
        return e164(re.sub(r"[ \t-]", "", value)) or value
    return value


#: A transfer number that is no whole number.
TRANSFER_FORMAT = 'Enter the transfer number with its country code, e.g. "+15551234567".'


def transfer_number(value: str) -> str:
    """An agent's (or a call's) transfer number, tidied to E.164 (`tidy`), then held to the
    number policy like every number a call may ring (NumberRefused)."""
    if emergency(value):
        raise NumberRefused(EMERGENCY)
    number = tidy(value)
    if number is None:
        raise ValueError(TRANSFER_FORMAT)
    return dialable(number, written=value)


DialNumber = Annotated[str, AfterValidator(dial_number)]
TestCallNumber = Annotated[str, AfterValidator(landing_number)]
ContactPhone = Annotated[str, AfterValidator(contact_phone)]
ListNumber = Annotated[str, AfterValidator(list_number)]
