"""The sandbox IVR's logic: where the keys a caller presses lead in a `numbers.Menu` tree, and
what the system says on the way (docs/sandbox.md, +15005550020)."""

from __future__ import annotations

from dataclasses import dataclass, field

from callwright.sandbox.numbers import Desk, Menu

INVALID = "Sorry, that is not a valid choice."
#: Said when nobody presses a key for a while, before the menu again.
NO_CHOICE = "Sorry, I did not get a choice."
#: How many times the menu is said again without a key before the system hangs up.
MAX_REPEATS = 3


@dataclass
class MenuWalker:
    top: Menu
    at: Menu = field(init=False)
    #: The person the keys reached (then the menu is over).
    desk: Desk | None = None
    #: Every key pressed on the menu, in order.
    pressed: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.at = self.top

    def press(self, keys: list[str]) -> str:
        """Press `keys` in turn (typed ahead: each on the menu the one before it led to, none
        after a person is reached); what the system says then (a person's first line when one
        is reached; nothing once one was)."""
        said = ""
        for key in keys:
            if self.desk is not None:
                break
            self.pressed.append(key)
            said = self._one(key)
        return said

    def _one(self, key: str) -> str:
        if key == "*":
            return self.at.prompt
        target = self.at.option(key)
        if target is None:
            return f"{INVALID} {self.at.prompt}"
        if isinstance(target, Desk):
            self.desk = target
            return target.lines[0]
        if isinstance(target, Menu):
            self.at = target
            return target.prompt
        self.at = self.top
        return f"{target} {self.top.prompt}"
