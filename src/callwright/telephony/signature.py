"""Twilio's request signature (X-Twilio-Signature), exactly as twilio-python validates it:
HMAC-SHA1 over the full URL plus the sorted form parameters, keyed with the Auth Token."""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Iterable
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit


def compute(auth_token: str, url: str, params: Iterable[tuple[str, str]] = ()) -> str:
    grouped: dict[str, set[str]] = {}
    for name, value in params:
        grouped.setdefault(name, set()).add(value)
    data = url + "".join(
        name + value for name in sorted(grouped) for value in sorted(grouped[name])
    )
    digest = hmac.new(auth_token.encode(), data.encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode()


def _with_port(url: str) -> str:
    parts = urlsplit(url)
    if parts.port is not None:
        return url
    port = 443 if parts.scheme == "https" else 80
    netloc = f"{parts.netloc}:{port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _without_port(url: str) -> str:
    parts = urlsplit(url)
    if parts.port is None or parts.hostname is None:
        return url
    netloc = parts.netloc.rsplit(":", 1)[0]
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def body_sha256(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def validate(
    auth_token: str,
    url: str,
    params: Iterable[tuple[str, str]],
    signature: str,
    *,
    body: bytes | None = None,
) -> bool:
    """True when `signature` matches, with or without the default port in the URL (as Twilio's
    own validator accepts). For JSON bodies the URL carries bodySHA256, which must match too."""
    if not signature:
        return False
    pairs = list(params)
    if body is not None:
        query = dict(parse_qsl(urlsplit(url).query))
        expected = query.get("bodySHA256", "")
        if not hmac.compare_digest(expected, body_sha256(body)):
            return False
        pairs = []
    candidates = {url, _with_port(url), _without_port(url)}
    return any(hmac.compare_digest(compute(auth_token, c, pairs), signature) for c in candidates)


def sign_form(auth_token: str, url: str, form: dict[str, str]) -> tuple[str, str]:
    """(signature, encoded body) for a form POST, as a Twilio-protocol sender would make it."""
    return compute(auth_token, url, form.items()), urlencode(form)
