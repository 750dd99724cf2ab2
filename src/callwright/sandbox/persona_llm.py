"""A simulated callee played by an LLM (the lab's `Callee.persona`, docs/lab.md): the callee
hears the agent's turns (transcribed from the audio it heard, as a person hears them) and asks
the install's LLM (OpenAI chat completions, `llm_base_url`) for its next line, with a system
message made of its persona and the rules of the part. The callee says its scripted `lines`
when the LLM fails (sandbox.callee)."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import httpx

from callwright.config import Settings
from callwright.kit.retry import backoff
from callwright.speech.audio import PCM, PHONE_RATE
from callwright.voice_agent.flow_llm import ChatModel

log = logging.getLogger(__name__)

#: The word that ends the callee's part: its line ends with it once it is done.
DONE = "GOODBYE"
RULES = (
    "You are the person being called on the phone; the other party is the caller. Stay in "
    "your part. Reply with one short spoken line, as you would say it on the phone: no stage "
    "directions, no quotes, no name before it. The caller's lines are what you heard over "
    f"the phone (they may be cut or misheard). When you are done with the call, say goodbye "
    f"and end your line with the word {DONE} in capitals."
)
#: The most lines the LLM writes in one call: the part ends there.
MAX_REPLIES = 20
#: The longest line kept (characters).
LINE_MAX = 300
#: What stands for an agent's turn nobody could make out.
INAUDIBLE = "(inaudible)"

Speaker = Literal["agent", "callee"]
#: The agent's words from the audio of one of its turns (8 kHz PCM).
Hear = Callable[[PCM], Coroutine[Any, Any, str]]


@dataclass(frozen=True)
class Reply:
    """A line the LLM wrote, and whether the callee is done with the call."""

    text: str
    done: bool


def system_message(persona: str) -> str:
    return f"{RULES}\n\nWho you are: {persona}"


def messages_for(persona: str, dialogue: Sequence[tuple[Speaker, str]]) -> list[dict[str, Any]]:
    """The chat: the system message, then the call so far, the agent's lines as the other
    party's (`user`) and the callee's own as the model's (`assistant`)."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": system_message(persona)}]
    for speaker, text in dialogue:
        role = "user" if speaker == "agent" else "assistant"
        messages.append({"role": role, "content": text.strip() or INAUDIBLE})
    return messages


def reply_of(content: str) -> Reply:
    """The line to say from what the LLM answered: one line, without quotes or the end word
    (which says "goodbye" when nothing else in the line does)."""
    text = " ".join(content.split()).strip().strip('"').strip()
    done = DONE in text
    if done:
        rest = " ".join(re.sub(rf"\b{DONE}\b[.!]?", " ", text).split())
        text = rest if re.search(r"\bbye\b|\bgoodbye\b", rest, re.I) else f"{rest} Goodbye.".strip()
    if not text:
        raise ValueError("the LLM answered no line")
    return Reply(text[:LINE_MAX], done)


def _transient(exc: BaseException) -> bool:
    """Worth another try: the endpoint unreachable, slow, rate-limited or failing."""
    if isinstance(exc, httpx.HTTPStatusError):
        return exc.response.status_code == 429 or exc.response.status_code >= 500
    return isinstance(exc, httpx.TransportError)


@dataclass(frozen=True)
class PersonaLLM:
    """The LLM that plays free-text personas, and the ears that hear the agent."""

    model: ChatModel
    hear: Hear
    #: Retries of a failed request: the first wait (seconds), and the time they may take.
    first_wait: float = 0.5
    within: float = 6.0

    @classmethod
    def of(cls, settings: Settings, hear: Hear) -> PersonaLLM | None:
        """The install's LLM (None when none is configured)."""
        if not settings.llm_base_url:
            return None
        model = ChatModel(
            settings.llm_base_url, settings.llm_api_key, settings.llm_model, temperature=0.7
        )
        return cls(model, hear)

    async def reply(self, persona: str, dialogue: Sequence[tuple[Speaker, str]]) -> Reply:
        """The callee's next line (raises when the LLM fails after its retries)."""
        messages = messages_for(persona, dialogue)
        async for attempt in backoff(
            _transient, first=self.first_wait, longest=2.0, within=self.within
        ):
            with attempt:
                message = await self.model.chat(messages)
        return reply_of(str(message.get("content") or ""))


def transcriber_ears(transcriber: Any) -> Hear:
    """Hearing with a `speech.stt.Transcriber` (its model's runs off the event loop)."""

    async def hear(pcm: PCM) -> str:
        try:
            text = await asyncio.to_thread(transcriber.transcribe, pcm, PHONE_RATE)
        except Exception as exc:
            log.warning("a simulated callee could not make out the agent: %s", exc)
            raise
        return str(text)

    return hear
