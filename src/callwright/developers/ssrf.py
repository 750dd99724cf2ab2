"""The server-side request forgery guard of outbound webhooks.

A target URL is checked twice: its syntax when an endpoint is saved (`check_syntax`: http or
https, a host, no credentials), and before every attempt and every redirect hop (`resolve`):
the host is resolved and every address it has must be public, unless the operator allows
private targets (`CALLWRIGHT_WEBHOOK_ALLOW_PRIVATE_TARGETS`). The sender then connects to the
address that was checked (`pinned`), so a DNS answer that changes between the check and the
connection (DNS rebinding) cannot point it elsewhere."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass

import httpx

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

SCHEMES = ("http", "https")
MAX_URL_LENGTH = 2048


class TargetRefused(Exception):
    """The target may not be called; the message says why (it is logged on the attempt)."""


def check_syntax(url: str) -> httpx.URL:
    """`url` parsed, or TargetRefused naming what is wrong with it."""
    if len(url) > MAX_URL_LENGTH:
        raise TargetRefused(f"The URL is longer than {MAX_URL_LENGTH} characters.")
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError, TypeError):
        raise TargetRefused("The URL is not valid.") from None
    if parsed.scheme not in SCHEMES:
        raise TargetRefused("The URL must start with http:// or https://.")
    if not parsed.host:
        raise TargetRefused("The URL has no host.")
    if parsed.userinfo:
        raise TargetRefused("The URL must not contain a user name or password.")
    return parsed


def forbidden(address: IPAddress) -> str | None:
    """Why `address` is not a public target, or None when it is."""
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped or address.sixtofour
        if mapped is not None:
            return forbidden(mapped)
    for kind, flag in (
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("private", address.is_private),
        ("multicast", address.is_multicast),
        ("unspecified", address.is_unspecified),
        ("reserved", address.is_reserved),
    ):
        if flag:
            return kind
    if not address.is_global:
        return "not public"
    return None


@dataclass(frozen=True)
class Target:
    """A checked target: the URL, and the address the sender must connect to."""

    url: httpx.URL
    address: IPAddress

    def pinned(self) -> tuple[httpx.URL, dict[str, str], dict[str, str]]:
        """The URL that reaches the checked address, the Host header of the original URL and
        the request extensions (the TLS server name stays the host, so HTTPS certificates are
        verified against it)."""
        url = self.url.copy_with(host=str(self.address))
        host = self.url.host
        default_port = {"http": 80, "https": 443}[self.url.scheme]
        port = self.url.port
        host_header = f"[{host}]" if ":" in host else host
        if port is not None and port != default_port:
            host_header += f":{port}"
        extensions = {"sni_hostname": host} if self.url.scheme == "https" else {}
        return url, {"host": host_header}, extensions


class Guard:
    def __init__(self, *, allow_private: bool) -> None:
        self.allow_private = allow_private

    async def resolve(self, url: str | httpx.URL) -> Target:
        """The target of `url` at a checked address; TargetRefused when it may not be called."""
        parsed = check_syntax(str(url))
        host = parsed.host
        try:
            literal: IPAddress | None = ipaddress.ip_address(host)
        except ValueError:
            literal = None
        if literal is not None:
            addresses = [literal]
        else:
            port = parsed.port or (443 if parsed.scheme == "https" else 80)
            try:
                infos = await asyncio.get_running_loop().getaddrinfo(
                    host, port, type=socket.SOCK_STREAM
                )
            except (socket.gaierror, UnicodeError) as exc:
                raise TargetRefused(f"The host {host} could not be resolved ({exc}).") from None
            addresses = [ipaddress.ip_address(str(info[4][0]).partition("%")[0]) for info in infos]
            if not addresses:
                raise TargetRefused(f"The host {host} has no address.")
        if not self.allow_private:
            for address in addresses:
                why = forbidden(address)
                if why is not None:
                    raise TargetRefused(
                        f"Refused: {host} resolves to {address}, a {why} address "
                        "(set CALLWRIGHT_WEBHOOK_ALLOW_PRIVATE_TARGETS to allow it)."
                    )
        return Target(url=parsed, address=addresses[0])
