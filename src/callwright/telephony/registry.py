"""An install's carriers by name: the one its settings name (`default`), and on an install whose
carrier is a real network, the sandbox network beside it for the agent lab's calls
(docs/lab.md, "The lab on a Twilio install"). A call row keeps the name of the carrier it was
placed on, and everything that acts on a call afterwards (hang up, fetch, transfer, its status
callbacks) goes through that carrier."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from callwright.telephony.base import Carrier

#: The name of the built-in sandbox network's carrier (telephony.carriers.twilio.SANDBOX).
SANDBOX = "sandbox"


class PlacedCall(Protocol):
    """What a call row says of its carrier."""

    carrier: str


class Carriers:
    def __init__(self, default: Carrier, *others: Carrier) -> None:
        #: The carrier the settings name: every call but the lab's goes on it.
        self.default = default
        self._by_name = {c.name: c for c in (*others, default)}

    def named(self, name: str) -> Carrier | None:
        """The carrier of that name, or None when this install has none."""
        return self._by_name.get(name)

    def for_call(self, call: PlacedCall) -> Carrier:
        """The carrier `call` was placed on (`placed_on`)."""
        return self.placed_on(call.carrier)

    def placed_on(self, name: str) -> Carrier:
        """The carrier of that name, a call's; the install's own for a call placed on one it no
        longer has (its settings changed since), as before there was more than one."""
        return self._by_name.get(name, self.default)

    @property
    def lab(self) -> Carrier | None:
        """The carrier of the lab's calls: the sandbox network, whatever the install's own."""
        return self._by_name.get(SANDBOX)

    def __iter__(self) -> Iterator[Carrier]:
        return iter(self._by_name.values())

    async def close(self) -> None:
        for carrier in self:
            await carrier.close()
