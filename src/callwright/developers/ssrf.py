"""The server-side request forgery guard of outbound webhooks.

A target URL is checked twice: its syntax when an endpoint is saved (`check_syntax`: http or
https, a host, no credentials), and before every attempt and every redirect hop (`resolve`):
the host is resolved and every address it has must be public, unless private targets are
allowed (`private_targets`). The sender then connects to the address that was checked
(`pinned`), so a DNS answer that changes between the check and the connection (DNS rebinding)
cannot point it elsewhere.

Private targets (loopback, the LAN, the cloud metadata address ...) are allowed by default only
while the server is reachable from this machine alone: it listens on loopback, behind no proxy,
and runs its jobs itself, so everyone who can sign in is on this machine already. Otherwise
they are refused unless the operator opts in (`CALLWRIGHT_WEBHOOK_ALLOW_PRIVATE_TARGETS=true`);
opted in, the delivery log keeps the status of a private target's answer but not its body, so
users cannot read the answers of services on the server's network through it."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass

import httpx

from callwright.config import Settings

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


#: Host names that always mean this machine.
LOOPBACK_NAMES = ("localhost", "localhost.")
SETTING = "CALLWRIGHT_WEBHOOK_ALLOW_PRIVATE_TARGETS"


def is_loopback_host(host: str) -> bool:
    """Whether a listening host (`CALLWRIGHT_HOST`, `serve --host`) is loopback only."""
    name = host.strip().strip("[]").lower()
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def served_beyond_loopback(settings: Settings) -> str | None:
    """Why people on other machines may reach this server, or None when they cannot."""
    if not is_loopback_host(settings.host):
        return f"the server listens on {settings.host} (CALLWRIGHT_HOST), not on loopback alone"
    if settings.trusted_proxies:
        return "the server is reached through a reverse proxy (CALLWRIGHT_TRUSTED_PROXIES)"
    if settings.job_broker_url:
        return (
            "jobs run in separate worker processes (CALLWRIGHT_JOB_BROKER_URL), which cannot "
            "tell which addresses the web processes serve"
        )
    return None


@dataclass(frozen=True)
class PrivateTargets:
    """The effective rule for webhook targets on non-public addresses, and why."""

    allowed: bool
    #: Whether the delivery log keeps a private target's answer (status code always).
    keep_bodies: bool
    reason: str


def private_targets(settings: Settings) -> PrivateTargets:
    """Private targets are allowed while the server is reachable from this machine alone;
    otherwise only when the operator opts in, and then their answers' bodies are not kept.
    `CALLWRIGHT_WEBHOOK_ALLOW_PRIVATE_TARGETS=false` refuses them everywhere."""
    beyond = served_beyond_loopback(settings)
    opt_in = settings.webhook_allow_private_targets
    if opt_in is False:
        return PrivateTargets(False, False, f"Refused: {SETTING} is false.")
    if beyond is None:
        return PrivateTargets(
            True,
            True,
            "Allowed: the server listens on loopback only, so everyone who can sign in is on "
            "this machine already.",
        )
    if opt_in:
        return PrivateTargets(
            True,
            False,
            f"Allowed by {SETTING}=true although {beyond}; the delivery log keeps the status "
            "of a private target's answer but not its body.",
        )
    return PrivateTargets(
        False,
        False,
        f"Refused: {beyond}. {SETTING}=true allows them (the delivery log then keeps no "
        "answer body from them).",
    )


@dataclass(frozen=True)
class Target:
    """A checked target: the URL, the address the sender must connect to, and why that
    address is not public (None when it is)."""

    url: httpx.URL
    address: IPAddress
    private: str | None = None

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
    def __init__(self, *, allow_private: bool, refusal: str = "") -> None:
        self.allow_private = allow_private
        #: Said after the reason an address is refused (what the operator may change).
        self.refusal = refusal or f" (set {SETTING} to allow it)."

    @classmethod
    def of(cls, settings: Settings) -> Guard:
        """The guard the settings call for (`private_targets`)."""
        rule = private_targets(settings)
        return cls(allow_private=rule.allowed, refusal=": " + rule.reason.removeprefix("Refused: "))

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
        private: str | None = None
        for address in addresses:
            why = forbidden(address)
            if why is None:
                continue
            if not self.allow_private:
                raise TargetRefused(
                    f"Refused: {host} resolves to {address}, a {why} address{self.refusal}"
                )
            private = private or f"{address} is a {why} address"
        return Target(url=parsed, address=addresses[0], private=private)


#: How long saving a URL waits for its host's addresses.
SAVE_RESOLVE_SECONDS = 3.0


async def private_notice(url: str, rule: PrivateTargets) -> str | None:
    """Checked when a URL is saved (an endpoint, a call's `webhook`): TargetRefused when it is on
    a private address and those are refused here; a sentence saying that it is private when
    they are allowed; None for a public URL, or one whose host does not resolve now (each
    attempt resolves it again)."""
    try:
        async with asyncio.timeout(SAVE_RESOLVE_SECONDS):
            target = await Guard(allow_private=True).resolve(url)
    except (TargetRefused, TimeoutError):
        return None
    if target.private is None:
        return None
    if not rule.allowed:
        raise TargetRefused(
            f"This URL is on a private address ({target.private}), and this server refuses "
            f"those: {rule.reason.removeprefix('Refused: ')}"
        )
    return f"This URL is on a private address ({target.private}). {rule.reason}"
