"""Phone menus, as the offline brain hears them: the options a menu offers ("For sales, press 1.",
"Press 2 for support.", "To hear these options again, press star.") and which of them the
agent's goal (its prompt) asks for, by the words they share. No LLM: plain text matching,
deterministic (docs/actions.md, "Keypad")."""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A key as said ("press 1", "press one", "press the star key", "press pound").
_KEY = r"(?:the\s+)?(?P<key>[0-9*#]|zero|one|two|three|four|five|six|seven|eight|nine|star|pound|hash)(?:\s+key)?(?![\w])"
_WORD_KEYS = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "star": "*",
    "pound": "#",
    "hash": "#",
}
#: Where a key is named: "press 1", "dial 0", "enter the star key".
_PRESS = re.compile(rf"\b(?:press|dial|enter)\s+{_KEY}", re.I)
#: A label's start: "for sales", "to return an item", "if you are calling about".
_PHRASE = re.compile(r"\b(?:for|to|if)\b", re.I)
_END = re.compile(r"[.!?;:]")
#: What a label starts with that says nothing of the option.
_LEAD = re.compile(
    r"^(?:(?:and|or|otherwise|now|please)\s+)*"
    r"(?:if\s+you(?:'re|\s+are)?\s+(?:calling|phoning)\s+(?:about|for|regarding)\s+"
    r"|if\s+you\s+(?:want|would\s+like|need)(?:\s+to)?\s+|for\s+|to\s+|if\s+)",
    re.I,
)
#: Words that tell options apart poorly (menu talk and the commonest words).
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "of",
        "to",
        "for",
        "in",
        "on",
        "at",
        "by",
        "with",
        "about",
        "your",
        "you",
        "our",
        "we",
        "me",
        "my",
        "it",
        "is",
        "are",
        "be",
        "this",
        "that",
        "if",
        "please",
        "press",
        "dial",
        "enter",
        "speak",
        "talk",
        "someone",
        "somebody",
        "reach",
        "calling",
        "call",
        "hear",
        "these",
        "those",
        "options",
        "option",
        "again",
        "menu",
        "now",
        "want",
        "would",
        "like",
        "need",
        "more",
        "information",
        "other",
        "all",
        "any",
        "can",
        "from",
    ]
)
#: Options that reach a person whatever the goal (when nothing else fits).
_PERSON = re.compile(
    r"\b(operator|representative|agent|person|someone|receptionist|all other|anything else)\b"
)
#: Options that only repeat the menu or go back.
_REPEAT = re.compile(r"\b(repeat|again|previous|main menu|go back)\b")
#: What a phone system says when a choice led nowhere (the menu follows again).
_REFUSED = re.compile(
    r"not a valid|invalid|(is|are) (closed|busy|not available|unavailable)|cannot take your call",
    re.I,
)
#: What a phone system says that is not a menu and asks nothing of a caller.
_SYSTEM_TALK = re.compile(
    r"thank(s| you) for calling|please (hold|wait|stay on the line)|one moment|"
    r"(transferring|connecting) (you|your call)|your call is important|not a valid (choice|option|selection)|"
    r"(returning|back) to the main menu|(is|are) (closed|not available) right now|main menu",
    re.I,
)

#: A receptionist's greeting, not a recording's: a question, an offer of help, a name given.
_PERSON_TALK = re.compile(r"\?|how (can|may) (i|we) help|\bspeaking\b", re.I)


@dataclass(frozen=True)
class Option:
    """One choice a menu offers: the key and what it is for ("sales")."""

    key: str
    label: str


def menu_options(heard: str) -> list[Option]:
    """The options a menu says, in order (none when `heard` is not a menu). Both ways of
    saying one are read, "For sales, press 1" and "Press 1 for sales": whichever names more
    labels, since a transcript often loses the full stops that would tell them apart ("for
    sales press 1 for support press 2")."""
    text = " ".join(heard.split())
    presses = list(_PRESS.finditer(text))
    before = [
        _label_before(text[(presses[i - 1].end() if i else 0) : m.start()])
        for i, m in enumerate(presses)
    ]
    after = [
        _label_after(text[m.end() : presses[i + 1].start() if i + 1 < len(presses) else None])
        for i, m in enumerate(presses)
    ]
    labels = after if sum(map(bool, after)) > sum(map(bool, before)) else before
    seen: set[str] = set()
    options = []
    for match, label in zip(presses, labels, strict=True):
        key = match.group("key").lower()
        key = _WORD_KEYS.get(key, key)
        if key not in seen and label:
            seen.add(key)
            options.append(Option(key, label))
    return options


def _label_before(text: str) -> str:
    """The label said before a key: the clause's last "for / to / if" phrase ("Thanks for
    calling Acme. For sales," gives "sales"), else the whole clause ("Sales,")."""
    clause = next((c for c in reversed(_END.split(text)) if c.strip(" ,")), "")
    starts = list(_PHRASE.finditer(clause))
    if starts:
        clause = clause[starts[-1].start() :]
    return _clean(clause)


def _label_after(text: str) -> str:
    """The label said after a key, when it starts with "for / to / if" ("for sales,")."""
    clause = _END.split(text)[0].strip(" ,")
    if not _PHRASE.match(clause):
        return ""
    return _clean(clause.split(",")[0])


def _clean(label: str) -> str:
    label = re.sub(r"\b(?:or|and|please|otherwise)\s*$", "", label.strip(" ,"), flags=re.I)
    return _LEAD.sub("", label.strip(" ,")).strip(" ,")


def words(text: str) -> set[str]:
    """The words of `text` that tell things apart, lower case and singular ("Deliveries" and
    "delivery" are one word)."""
    found = set()
    for word in re.findall(r"[a-z]+", text.lower()):
        if word in _STOP or len(word) < 3:
            continue
        found.add(_singular(word))
    return found


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def choose(options: list[Option], goal: str, *, tried: frozenset[str] = frozenset()) -> str | None:
    """The key of the option whose words the goal shares most (first on a tie), not one
    already `tried` on this menu; else one that reaches a person; else None (wait: the
    menu may say more)."""
    wanted = words(goal)
    best: tuple[int, str] | None = None
    for option in options:
        if option.key in tried or _REPEAT.search(option.label.lower()):
            continue
        score = len(words(option.label) & wanted)
        if score > 0 and (best is None or score > best[0]):
            best = (score, option.key)
    if best is not None:
        return best[1]
    return next(
        (o.key for o in options if o.key not in tried and _PERSON.search(o.label.lower())), None
    )


def refused(heard: str) -> bool:
    """Whether the system says the last choice led nowhere ("Our sales team is closed right
    now.", "That is not a valid choice."): then another option is tried."""
    return bool(_REFUSED.search(heard))


def system_talk(heard: str) -> bool:
    """Whether `heard` is a phone system's own talk ("Thanks for calling Acme.", "Please
    hold.", "That is not a valid choice."), which a caller does not answer; not when it asks
    the caller something, as a person who answers does ("Thank you for calling Acme, Jordan
    speaking, how can I help you?")."""
    return bool(_SYSTEM_TALK.search(heard)) and not _PERSON_TALK.search(heard)
