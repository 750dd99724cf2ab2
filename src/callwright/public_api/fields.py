"""Every field of Bland's `POST /v1/calls` has an answer (docs/api.md, "Every field of Bland's
send call"): honoured (`V1SendCallIn` declares it and the call builder uses it), or refused with
a 400 in Bland's error shape that names it and says why. Accepting a field and then ignoring it
is never the answer.

A refused field sent with a value that asks for nothing Callwright does not do is taken: null,
an empty text, list or object, and the values each lists (`block_interruptions: false`, `model:
"base"`). Any key that is none of Bland's fields nor Callwright's is refused as well: Bland's
documented fields each have an answer here, so a Bland client never meets that refusal, while a
misspelt `recrod: false` does not go by unnoticed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from callwright.kit.errors import ValidationFailed


@dataclass(frozen=True)
class Refusal:
    #: Why, after the field's name ("`model`: only `base` is supported ...").
    why: str
    #: Values that ask for nothing Callwright does not do (besides null and empty ones).
    accepted: tuple[Any, ...] = ()


NO_POOL = "Callwright has no number pool: calls go out from this server's number (see `from`)"
CITATIONS = "citations are not supported by Callwright yet; `analysis_schema` extracts fields"
ONLY_FALSE = "only `false` is supported"

#: Bland's send-call fields Callwright does not do, and why.
REFUSED: dict[str, Refusal] = {
    "persona_id": Refusal("Callwright has no personas; send `agent_id` (one of your saved agents)"),
    "model": Refusal(
        "only `base` is supported: Callwright runs one model, the one its server is set up with",
        ("base",),
    ),
    "interruptibility": Refusal(
        "not supported by Callwright; send `interruption_threshold` (milliseconds, 50 to 500)"
    ),
    "block_interruptions": Refusal(
        f"{ONLY_FALSE}: the callee can always interrupt the agent", (False,)
    ),
    "noise_cancellation": Refusal(
        f"{ONLY_FALSE}: noise cancellation is not supported by Callwright yet", (False,)
    ),
    "reduce_latency": Refusal(
        "only `true` is supported: Callwright always runs its lowest-latency pipeline", (True,)
    ),
    "voice_preset_id": Refusal("Callwright has no voice presets; send `voice` (GET /v1/voices)"),
    "voice_settings": Refusal("not supported by Callwright: its voices have no settings"),
    "amd": Refusal(
        "only `true` is supported: Callwright always tells a person from voicemail "
        "(`answered_by`, with `answered_by_enabled`)",
        (True,),
    ),
    "sensitive_voicemail_detection": Refusal(
        f"{ONLY_FALSE}: sensitive voicemail detection is not supported by Callwright yet",
        (False,),
    ),
    "retry": Refusal("retrying a call that reached voicemail is not supported by Callwright yet"),
    "dialing_strategy": Refusal(NO_POOL),
    "local_dialing": Refusal(NO_POOL, (False,)),
    "citation_schema_ids": Refusal(CITATIONS),
    "citation_schema_id": Refusal(CITATIONS),
    "post_call_evals": Refusal(
        "post-call evaluations are not supported by Callwright yet; `analysis_schema` extracts "
        "fields"
    ),
    "stream_post_transfer_transcript": Refusal(
        f"{ONLY_FALSE}: the transcript after a transfer is in the call's `transcripts`", (False,)
    ),
    "webhook_events": Refusal(
        "streamed events are not supported by Callwright yet: `webhook` gets the call once, "
        "when it ends, and your webhook endpoints get its `call.*` events (docs/webhooks.md)"
    ),
    "keywords": Refusal("speech-to-text keywords are not supported by Callwright yet"),
    "pronunciation_guide": Refusal("pronunciation guides are not supported by Callwright yet"),
    "ignore_button_press": Refusal(
        f"{ONLY_FALSE}: the agent always hears the keys the callee presses", (False,)
    ),
    "guard_rails": Refusal(
        "guard rails are not supported by Callwright yet; every call says its AI disclosure "
        "(`disclosure`)"
    ),
    "encrypted_key": Refusal(
        "bring-your-own Twilio is not supported: calls go through this server's carrier"
    ),
}
#: What `voicemail`'s own fields may not ask for.
VOICEMAIL_REFUSED: dict[str, Refusal] = {
    "sms": Refusal("a text message after voicemail is not supported by Callwright yet"),
    "sensitive": Refusal(
        f"{ONLY_FALSE}: sensitive voicemail detection is not supported by Callwright yet",
        (False,),
    ),
}
UNKNOWN = "not a field of `POST /v1/calls` (docs/api.md lists them)"


def _asks(value: Any, refusal: Refusal) -> bool:
    """Whether `value` asks for something the refusal is about."""
    if value is None or value in ("", [], {}):
        return False
    # `True == 1` in Python: a flag's accepted value is matched by type as well.
    return not any(type(value) is type(ok) and value == ok for ok in refusal.accepted)


def _refused(name: str, why: str) -> tuple[str, list[str]]:
    return name, [f"`{name}`: {why}."]


#: Why `POST /v1/batches` refuses a field that `POST /v1/calls` honours.
BATCH_NOT_YET = (
    "honoured by `POST /v1/calls` but not carried to a batch's calls yet: send those calls "
    "one by one, or leave it out"
)
BATCH_UNKNOWN = "not a field of `POST /v1/batches` (docs/api.md lists them)"
#: What a batch's calls do anyway, so asking for it is taken (record, show who answered).
BATCH_ACCEPTED: dict[str, tuple[Any, ...]] = {"record": (True,), "answered_by_enabled": (True,)}


def _among(
    extra: Mapping[str, Any],
    refusal_of: Callable[[str], Refusal | None],
    unknown: str,
    prefix: str = "",
) -> dict[str, list[str]]:
    """The refused fields among `extra`'s keys (at `prefix`): field -> its message; a key with
    no refusal (`refusal_of` answers None) is unknown."""
    errors: dict[str, list[str]] = {}
    for name, value in extra.items():
        refusal = refusal_of(name)
        if refusal is None:
            errors.update([_refused(prefix + name, unknown)])
        elif _asks(value, refusal):
            errors.update([_refused(prefix + name, refusal.why)])
    return errors


def batch_refusals(
    extra: Mapping[str, Any], calls_only: set[str], prefix: str = ""
) -> dict[str, list[str]]:
    """The refused fields among a batch's undeclared keys (`extra`, at `prefix`): those only
    `/v1/calls` honours (`calls_only`), Bland's refused ones, and unknown ones."""

    def refusal_of(name: str) -> Refusal | None:
        if name in calls_only:
            return Refusal(BATCH_NOT_YET, BATCH_ACCEPTED.get(name, ()))
        return REFUSED.get(name)

    return _among(extra, refusal_of, BATCH_UNKNOWN, prefix)


def refusals(
    extra: Mapping[str, Any], voicemail: Mapping[str, Any] | None = None
) -> dict[str, list[str]]:
    """The refused fields among the keys the request's model did not declare (`extra`) and the
    `voicemail` object's own: field -> its message."""
    errors = _among(extra, REFUSED.get, UNKNOWN)
    for name, value in (voicemail or {}).items():
        refusal = VOICEMAIL_REFUSED.get(name)
        if refusal is not None and _asks(value, refusal):
            errors.update([_refused(f"voicemail.{name}", refusal.why)])
    return errors


def refuse(extra: Mapping[str, Any], voicemail: Mapping[str, Any] | None = None) -> None:
    """ValidationFailed (a 400 on `/v1`) naming every refused field, when there is one."""
    errors = refusals(extra, voicemail)
    if errors:
        raise ValidationFailed(errors)
