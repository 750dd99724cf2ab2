"""Word error, as the speech benchmarks and tests measure it: words compared after folding case,
accents and apostrophes, and the word-level edit distance between two transcripts."""

from __future__ import annotations

import re
import unicodedata


def words(text: str) -> list[str]:
    """Lower-case, accents folded, apostrophes dropped, any other non-letter a space."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    return re.sub(r"[^\w]+", " ", re.sub(r"['\u2019]", "", folded)).split()


def edits(reference: list[str], hypothesis: list[str]) -> int:
    """Word-level Levenshtein distance."""
    previous = list(range(len(hypothesis) + 1))
    for i, ref in enumerate(reference, 1):
        current = [i] + [0] * len(hypothesis)
        for j, hyp in enumerate(hypothesis, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ref != hyp))
        previous = current
    return previous[-1]
