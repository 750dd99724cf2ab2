"""Twilio's published request-validator test vectors (twilio-python
tests/unit/test_request_validator.py), accepted and refused."""

from __future__ import annotations

import pytest

from callwright.telephony import signature

TOKEN = "12345"
URL = "https://mycompany.com/myapp.php?foo=1&bar=2"
PARAMS = [
    ("CallSid", "CA1234567890ABCDE"),
    ("Digits", "1234"),
    ("From", "+14158675309"),
    ("To", "+18005551212"),
    ("Caller", "+14158675309"),
]


def test_compute_matches_the_published_vector() -> None:
    assert signature.compute(TOKEN, URL, PARAMS) == "RSOYDt4T1cUTdK1PDd93/VVr8B8="


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (URL, "RSOYDt4T1cUTdK1PDd93/VVr8B8="),
        ("https://mycompany.com:443/myapp.php?foo=1&bar=2", "kvajT1Ptam85bY51eRf/AJRuM3w="),
        ("http://mycompany.com:80/myapp.php?foo=1&bar=2", "0ZXoZLH/DfblKGATFgpif+LLRf4="),
    ],
)
def test_port_variants_compute_their_vectors(url: str, expected: str) -> None:
    assert signature.compute(TOKEN, url, PARAMS) == expected


def test_validate_accepts_with_or_without_the_default_port() -> None:
    assert signature.validate(TOKEN, URL, PARAMS, "RSOYDt4T1cUTdK1PDd93/VVr8B8=")
    assert signature.validate(
        TOKEN,
        "https://mycompany.com:443/myapp.php?foo=1&bar=2",
        PARAMS,
        "RSOYDt4T1cUTdK1PDd93/VVr8B8=",
    )
    assert signature.validate(TOKEN, URL, PARAMS, "kvajT1Ptam85bY51eRf/AJRuM3w=")


def test_repeated_parameters_are_sorted_and_deduplicated() -> None:
    params = [
        ("Sid", "CA123"),
        ("SidAccount", "AC123"),
        ("Digits", "5678"),
        ("Digits", "1234"),
        ("Digits", "1234"),
    ]
    assert signature.compute(TOKEN, URL, params) == "IK+Dwps556ElfBT0I3Rgjkr1wJU="


def test_json_body_is_checked_through_body_sha256() -> None:
    body = b'{"property": "value", "boolean": true}'
    assert (
        signature.body_sha256(body)
        == "0a1ff7634d9ab3b95db5c9a2dfe9416e41502b283a80c7cf19632632f96e6620"
    )
    url = f"{URL}&bodySHA256={signature.body_sha256(body)}"
    assert signature.validate(TOKEN, url, [], "a9nBmqA0ju/hNViExpshrM61xv4=", body=body)
    assert not signature.validate(TOKEN, url, [], "a9nBmqA0ju/hNViExpshrM61xv4=", body=body + b" ")


@pytest.mark.parametrize(
    ("token", "url", "params", "sig"),
    [
        ("wrong", URL, PARAMS, "RSOYDt4T1cUTdK1PDd93/VVr8B8="),
        (TOKEN, URL + "&extra=1", PARAMS, "RSOYDt4T1cUTdK1PDd93/VVr8B8="),
        (TOKEN, URL, [*PARAMS[:-1], ("Caller", "+10000000000")], "RSOYDt4T1cUTdK1PDd93/VVr8B8="),
        (TOKEN, URL, PARAMS, ""),
        (TOKEN, URL, PARAMS, "RSOYDt4T1cUTdK1PDd93/VVr8B8"),
    ],
)
def test_validate_refuses_tampering(
    token: str, url: str, params: list[tuple[str, str]], sig: str
) -> None:
    assert not signature.validate(token, url, params, sig)
