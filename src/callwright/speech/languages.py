"""The languages a call can be held in: those that passed the offline round trip.

`benchmarks/languages.py` speaks a few fixed sentences per language with every voice that
speaks it, sends them through the phone line's 8 kHz mu-law, transcribes them with the
shipped Whisper model in that language and scores the word error. A language passes when one
of its voices stays at or under `WER_THRESHOLD` in every run; `OFFERED` holds those that
passed (the benchmark writes `benchmarks/results/languages.json`, and a test keeps `OFFERED`
equal to that file's passing set). docs/voice-engine.md has the table.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    #: BCP-47 code, as the API takes it ("en-US").
    code: str
    #: English name, as the picker shows it.
    name: str
    #: Whisper's language code (what the STT is told to transcribe).
    whisper: str


#: Every language the benchmark measures, in display order.
CANDIDATES: tuple[Language, ...] = (
    Language("en-US", "English", "en"),
    Language("es-ES", "Spanish", "es"),
    Language("fr-FR", "French", "fr"),
    Language("de-DE", "German", "de"),
    Language("it-IT", "Italian", "it"),
    Language("pt-BR", "Portuguese", "pt"),
    Language("nl-NL", "Dutch", "nl"),
    Language("pl-PL", "Polish", "pl"),
)

#: Highest word error (in every run) at which a language passes: see docs/voice-engine.md.
WER_THRESHOLD = 0.20

#: The languages that passed (benchmarks/results/languages.json), in display order.
OFFERED: tuple[str, ...] = ("en-US",)

DEFAULT = "en-US"


def offered() -> tuple[Language, ...]:
    return tuple(lang for lang in CANDIDATES if lang.code in OFFERED)


def find(code: str) -> Language | None:
    """The offered language `code` names: its BCP-47 code in any case, or its bare language
    subtag ("es" for "es-ES"); None when no offered language matches."""
    wanted = code.strip().replace("_", "-").casefold()
    for lang in offered():
        if wanted in (lang.code.casefold(), lang.whisper):
            return lang
    return None


def get(code: str) -> Language:
    """An offered language (the default when `code` names none that is offered)."""
    return find(code) or find(DEFAULT) or CANDIDATES[0]


def not_offered_message(code: str) -> str:
    names = ", ".join(f"{lang.name} ({lang.code})" for lang in offered())
    return f'The language "{code.strip()}" is not offered. Offered: {names}.'


def checked(code: str | None) -> str:
    """The canonical code of an offered language (the default for None or empty); ValueError
    with a message naming the offered ones otherwise."""
    if code is None or not code.strip():
        return DEFAULT
    lang = find(code)
    if lang is None:
        raise ValueError(not_offered_message(code))
    return lang.code
