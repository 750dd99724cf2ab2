"""A call's life in one place: what happens when a call is queued (placed), started (answered)
and ended (finalised), in the order it happens.

- queued:  the subscribers (the webhooks' `call.queued`).
- started: the subscribers (the webhooks' `call.started`).
- acted:   the agent did something in the call (an in-call action: a tool, a transfer, keys):
           its action line (the call's event, live after the commit), then the action
           subscribers (the webhooks' `call.action`).
- ended:   the call settled (billing: the charge, the hold's rest released, `balance-update`),
           its closing live events ("Call duration & price", "Closing call stream", to the
           sockets after the commit), then the subscribers: the webhooks' `call.ended`, the
           campaign's progress, the post-call analysis (a job sent after the commit).
- analyzed: the post-call analysis is stored: the subscribers (the call's own `webhook`, in
           Bland's shape: the call object, once).

The subscribers are registered by the packages that need them, at the composition root
(`callwright.core`), each for the calls it cares about (`only`): a dashboard call goes through
no campaign's code. Each is called inside the transaction that made the change, so what it
writes is written with it or not at all."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Literal

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.billing.service import Billing
from callwright.calls.events import CLOSING, CallEvents
from callwright.calls.outcomes import sentence
from callwright.models import Call
from callwright.realtime.events import CallAction, WebhookEvent
from callwright.telephony.state import CallOutcome

Stage = Literal["queued", "started", "ended", "analyzed"]
#: What a subscriber does at a stage of a call's life.
Hook = Callable[[AsyncSession, Call], Awaitable[None]]
#: What a subscriber does when the agent acts in a call.
ActionHook = Callable[[AsyncSession, Call, CallAction], Awaitable[None]]
#: Which calls a subscriber hears of.
Only = Callable[[Call], bool]


def every_call(_call: Call) -> bool:
    return True


def owned(call: Call) -> bool:
    """A user's call (not the public test call, not the CLI's)."""
    return call.user_id is not None


class CallLife:
    def __init__(self, billing: Billing, events: CallEvents) -> None:
        self.billing = billing
        self.events = events
        self._hooks: dict[Stage, list[tuple[Hook, Only]]] = {
            "queued": [],
            "started": [],
            "ended": [],
            "analyzed": [],
        }
        self._action_hooks: list[tuple[ActionHook, Only]] = []

    def subscribe(self, stage: Stage, hook: Hook, *, only: Only = every_call) -> None:
        """Have `hook` told of every call (`only` those) reaching `stage`, after those
        subscribed before it."""
        self._hooks[stage].append((hook, only))

    def subscribe_actions(self, hook: ActionHook, *, only: Only = every_call) -> None:
        """Have `hook` told of every action the agent takes in a call (`only` those calls)."""
        self._action_hooks.append((hook, only))

    async def acted(self, session: AsyncSession, call: Call, action: CallAction) -> None:
        """The agent acted in `call`: its action line, then the subscribers."""
        line = WebhookEvent(
            call_id=call.id,
            message=action.summary,
            category="action",
            completed=False,
            action=action,
        )
        await self.events.keep(session, call, line)
        for hook, only in self._action_hooks:
            if only(call):
                await hook(session, call, action)

    async def queued(self, session: AsyncSession, call: Call) -> None:
        await self._tell("queued", session, call)

    async def started(self, session: AsyncSession, call: Call) -> None:
        await self._tell("started", session, call)

    async def ended(self, session: AsyncSession, call: Call, outcome: CallOutcome | None) -> None:
        """The end of a call, once (its finalisation claimed), as the module says."""
        seconds = call.duration_seconds or 0
        await self.billing.settle(session, call)
        await self.events.record(session, call, f"Call duration & price: {seconds}s", "call")
        closing = WebhookEvent(
            call_id=call.id,
            message=CLOSING,
            category="call",
            completed=True,
            outcome=outcome,
            answered_by=call.answered_by,
            outcome_text=sentence(outcome, call.error),
        )
        await self.events.keep(session, call, closing)
        await self._tell("ended", session, call)

    async def analyzed(self, session: AsyncSession, call: Call) -> None:
        """The finished call's analysis is stored (calls.post_call)."""
        await self._tell("analyzed", session, call)

    async def _tell(self, stage: Stage, session: AsyncSession, call: Call) -> None:
        for hook, only in self._hooks[stage]:
            if only(call):
                await hook(session, call)
