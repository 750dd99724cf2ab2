"""The client's address, decided once for every consumer (rate limits, the sandbox's loopback
check, logs): the socket peer, unless the peer is one of the operator's trusted proxies
(`CALLWRIGHT_TRUSTED_PROXIES`), in which case `X-Forwarded-For` is read from the right, each
trusted hop skipped, and the first address no trusted proxy vouches for is the client.

Nothing else reads `X-Forwarded-For`: uvicorn's own proxy-header handling is off (it trusts
127.0.0.1 by default, which let any local client choose its own rate-limit address)."""

from __future__ import annotations

import ipaddress

from starlette.types import ASGIApp, Receive, Scope, Send

from callwright.config import IPNetwork as Network


def _trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(peer: str, forwarded_for: str | None, trusted: tuple[Network, ...]) -> str:
    """The client behind `peer` (see the module's doc)."""
    if not trusted or not forwarded_for or not _trusted(peer, trusted):
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    client = peer
    for hop in reversed(hops):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            break  # garbage in the chain: keep the last address a trusted proxy gave
        client = hop
        if not _trusted(hop, trusted):
            break
    return client


class ClientAddressMiddleware:
    """Puts the client's address in the ASGI scope (`scope["client"]`), and the scheme a
    trusted proxy says it was reached by (`X-Forwarded-Proto`)."""

    def __init__(self, app: ASGIApp, trusted: tuple[Network, ...]) -> None:
        self.app = app
        self.trusted = trusted

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and self.trusted and scope.get("client"):
            peer = scope["client"][0]
            if _trusted(peer, self.trusted):
                headers = dict(scope["headers"])
                forwarded = headers.get(b"x-forwarded-for")
                if forwarded is not None:
                    address = client_address(peer, forwarded.decode("latin-1"), self.trusted)
                    scope = {**scope, "client": (address, 0)}
                proto = headers.get(b"x-forwarded-proto", b"").decode("latin-1").strip().lower()
                if proto in ("http", "https"):
                    if scope["type"] == "websocket":
                        proto = "wss" if proto == "https" else "ws"
                    scope = {**scope, "scheme": proto}
        await self.app(scope, receive, send)
