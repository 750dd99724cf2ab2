"""Phone numbers at the edge: every number a request or the CLI gives is read here once, with
`phonenumbers`, and kept in E.164 (`+15551230000`) from then on. So every rule and limit that
follows (the per-number test-call limit, the sandbox's number plan, the carrier) sees one
spelling per number: written in Arabic-Indic, Devanagari or full-width digits, "+15551230000"
is the same number, and a number no country could have is refused.

Each form keeps the spec's own rule and messages (docs/security.md, "Phone numbers"):

- `DialNumber`: the send-call phone (and `callwright call --to`);
- `TestCallNumber`: the landing page's free test call;
- `ContactPhone`: the subscribe/contact form's phone, a detail for a person to read, not a
  number we dial: digits folded to ASCII, E.164 when it is written with its country code.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

import phonenumbers
from pydantic import AfterValidator

#: Spec (user area, section 5): send-call phone.
DIAL_EMPTY = "Phone number cannot be empty"
DIAL_SPACES = "Phone number should not contain spaces"
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


def dial_number(value: str) -> str:
    """The send-call phone (trimmed), in E.164, with the spec's three messages."""
    value = fold_digits(value.strip())
    if not value:
        raise ValueError(DIAL_EMPTY)
    if re.search(r"\s", value):
        raise ValueError(DIAL_SPACES)
    number = e164(value) if _DIAL_RE.fullmatch(value) else None
    if number is None:
        raise ValueError(DIAL_FORMAT)
    return number


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


def landing_number(value: str) -> str:
    """The landing test-call phone: an optional plus, a non-zero first digit and 1 to 14 more
    digits, in E.164."""
    value = fold_digits(value.strip())
    if not value:
        raise ValueError(TEST_CALL_EMPTY)
    if not _TEST_CALL_RE.fullmatch(value):
        raise ValueError(TEST_CALL_FORMAT)
    number = e164(value if value.startswith("+") else f"+{value}")
    if number is None:
        raise ValueError(TEST_CALL_FORMAT)
    return number


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


DialNumber = Annotated[str, AfterValidator(dial_number)]
TestCallNumber = Annotated[str, AfterValidator(landing_number)]
ContactPhone = Annotated[str, AfterValidator(contact_phone)]
ListNumber = Annotated[str, AfterValidator(list_number)]
