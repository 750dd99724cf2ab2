"""The offline demo brain: a deterministic, prompt-driven conversation policy.

No chat model that runs offline here holds a sensible conversation, so when no LLM endpoint is
configured the agent follows this policy instead, and the product says so. It reads the prompt
for who is calling (name, company), why (the first sentence that states a purpose) and what to
ask (the prompt's questions), greets, asks its questions one per turn, recognises a handful of
intents in what the callee says (yes, no, later, not interested, wrong person, voicemail, a
question, goodbye) and ends politely. Every reply is a template filled from the prompt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import StrEnum

from callwright.voice_agent import ivr
from callwright.voice_agent.sentences import split_sentences


class Intent(StrEnum):
    VOICEMAIL = "voicemail"
    OPT_OUT = "opt_out"
    WRONG_PERSON = "wrong_person"
    TRANSFER = "transfer"
    NOT_INTERESTED = "not_interested"
    LATER = "later"
    GOODBYE = "goodbye"
    PRICE = "price"
    #: Asks what only the business's own systems could answer (a free time, an order, an
    #: account): the offline brain cannot look it up (no tools without an LLM).
    LOOKUP = "lookup"
    WHO = "who"
    YES = "yes"
    NO = "no"
    QUESTION = "question"
    GREETING = "greeting"
    OTHER = "other"
    #: A phone menu ("for sales, press 1") or its system's talk: answered with keys or not at all.
    MENU = "menu"
    #: The callee pressed a key.
    KEY = "key"


# Checked in this order: the first match wins.
_INTENT_PATTERNS: list[tuple[Intent, re.Pattern[str]]] = [
    (
        Intent.VOICEMAIL,
        re.compile(
            r"leave (a|your) message|after the (tone|beep)|not available|can'?t (take|come to) (your|the) (call|phone)|you('ve| have) reached|voicemail|mailbox"
        ),
    ),
    (
        # The callee asks not to be called again: the call ends and the number is listed
        # (docs/compliance.md, opt-out). Before "not interested", which it also is.
        Intent.OPT_OUT,
        re.compile(
            r"(stop|quit) (calling|ringing)|do(n'?t| not) (ever )?(call|ring|phone|contact) (me|us|this number|here)|never (call|ring|phone|contact) (me|us|this number|here)"
            r"|(take|get) (me|my (phone )?number|this number) off|(remove|delete) (me|my (phone )?number|this number) from"
            r"|(put|add) (me|my (phone )?number|this number) (on|to) (your|the) do.?not.?call|do.?not.?call list|no more calls"
        ),
    ),
    (
        Intent.WRONG_PERSON,
        re.compile(
            r"wrong (number|person)|no one (here )?(by|with) that name|doesn'?t live here|you have the wrong"
        ),
    ),
    (
        # The callee asks for a person, a human or a department (docs/actions.md, "Transfer").
        Intent.TRANSFER,
        re.compile(
            r"\b(speak|talk)(ing)? (to|with) (a |an |the |your |some ?one (in |from )?)?(real |live |actual )?(person|human|agent|representative|operator|manager|sales|support|billing|someone|somebody)"
            r"|\b(want|need|like|get me) (a |an )?(real |live |actual )?(person|human|representative|operator)\b"
            r"|\btransfer me\b|\bput me through\b|\bconnect me (to|with)\b"
        ),
    ),
    (
        Intent.NOT_INTERESTED,
        re.compile(r"not interested|no,? thanks?|no thank you"),
    ),
    (
        # Before "later": "do you have anything free next week?" asks, it does not put off.
        Intent.LOOKUP,
        re.compile(
            r"\b(is|are|do you have|have you got|any(thing)?|what)\b[^.?!]*\b(free|available|availability|openings?|slots?|in stock)\b"
            r"|\b(where|what|when|how|check|look up|status of)\b[^.?!]*\bmy (order|account|balance|booking|reservation|appointment|delivery|package|bill|invoice|refund)"
        ),
    ),
    (
        Intent.LATER,
        re.compile(
            r"call (me )?back|busy (right )?now|another time|later|not a good time|tomorrow|next week"
        ),
    ),
    (Intent.PRICE, re.compile(r"how much|price|cost|fee|charge|expensive")),
    (
        Intent.WHO,
        re.compile(
            r"\bwho(?:'?s| is| was| are you)\b|what(?:'?s| is) (?:this|it) (?:about|regarding)|why are you calling|what is this call"
        ),
    ),
    (Intent.GOODBYE, re.compile(r"\b(good ?bye|bye|have a (good|nice) (day|one))\b")),
    (
        Intent.NO,
        re.compile(r"^\s*(no|nope|nah|not really|i don'?t think so)\b|\bno,? i (don'?t|do not)\b"),
    ),
    (
        Intent.YES,
        re.compile(
            r"\b(yes|yeah|yep|sure|okay|ok|of course|absolutely|definitely|sounds (good|great|interesting|fair)|i'?d (like|love)|i would (like|love)|let'?s do it|go ahead|tell me more|that works|interested|speaking|please do)\b"
        ),
    ),
    (
        Intent.QUESTION,
        re.compile(r"\?\s*$|^(what|how|why|when|where|which|can|could|do|does|is|are)\b"),
    ),
    (Intent.GREETING, re.compile(r"^\s*(hello|hi|hey|good (morning|afternoon|evening))\b")),
]


_GREETING_ONLY = re.compile(r"^\s*(hello|hi|hey)\b(?!.*\b(yes|yeah|sure|okay|works|fine)\b)")


#: What the agent says when the callee opts out, before it hangs up: true, since the number is
#: on the do-not-call list by the time the call ends.
OPT_OUT_REPLY = (
    "I understand, and I'm sorry for the trouble. I've taken your number off our list, so you "
    "won't be called again. Goodbye."
)


#: What the offline brain says to a question only a tool could answer: plainly, it cannot.
LOOKUP_REPLY = (
    "I'm sorry, I can't look that up on this call. A colleague can call you back with the answer."
)


def llm_opening(first_sentence: str | None, disclosure: str) -> str:
    """The line the LLM path opens with, already spoken when the model first runs: the call's
    first sentence and the disclosure, or a hello and the disclosure."""
    return " ".join(part for part in (first_sentence or "Hello!", disclosure) if part)


def opts_out(heard: str) -> bool:
    """Whether the callee asks not to be called again ("stop calling me", "take me off your
    list", "do not call this number")."""
    return classify(heard) is Intent.OPT_OUT


def classify(heard: str) -> Intent:
    text = " ".join(heard.lower().split())
    found = next(
        (intent for intent, pattern in _INTENT_PATTERNS if pattern.search(text)), Intent.OTHER
    )
    # "Hello, this is Sam speaking" answers the phone; it is not a yes to anything.
    if found in (Intent.YES, Intent.QUESTION, Intent.OTHER) and _GREETING_ONLY.search(text):
        return Intent.GREETING
    return found


_NAME = re.compile(
    r"\b(?i:your name is|you are|you're|this is|i am|i'm|named|as)\s+([A-Z][a-z]+)\b"
)
_NOT_NAMES = {"A", "An", "The", "Calling", "From", "Here", "Our", "Your"}
_COMPANY = re.compile(r"\b(?:from|at|for|with|of)\s+((?:[A-Z][\w&'-]*)(?:\s+[A-Z][\w&'-]*)*)")
_PURPOSE_WORDS = re.compile(
    r"\b(call|calling|remind|confirm|offer|invite|book|schedule|follow up|let|tell|ask|check|sell|introduce|promote|renew|survey)\b",
    re.I,
)
_PRICE = re.compile(r"(\$\s?\d[\d,]*(?:\.\d{2})?(?:\s+(?:per|a)\s+\w+|\s*/\s*\w+)?)")
_ASK = re.compile(r"^ask (?:them |the customer |the callee |him |her )?(?:if|whether) (.+)$", re.I)
_ASK_WHAT = re.compile(
    r"^ask (?:them |the customer |the callee )?(what|when|which|how|who|why|where) (.+)$", re.I
)
_CALL_TO = re.compile(r"^(?:call|phone|contact|reach out to|ring)\s+.+?\s+to\s+(.+)$", re.I)
_IMPERATIVE = re.compile(
    r"^(you are|you're|your (name|role|job|goal|task) is|act as|be |always |never |do not |don't |keep |speak |use )",
    re.I,
)


def _lower_first(text: str) -> str:
    return text if text.startswith(("I ", "I'")) or not text else text[0].lower() + text[1:]


_STYLE = re.compile(
    r"\b(be|keep|stay|sound|speak)\s+(it\s+)?(friendly|polite|brief|short|professional|concise|warm|natural|calm|clear)",
    re.I,
)


def _plain(text: str) -> str:
    """Text as compared for "was it said": lower case, single spaces."""
    return " ".join(text.lower().split())


def _second_person(sentence: str) -> str:
    """Turn an instruction about the agent ("You are calling to remind them ...") into what the
    agent says ("I'm calling to remind you ...")."""
    s = sentence.strip().rstrip(".!")
    swaps = [
        (r"\byou are\b", "I am"),
        (r"\byou're\b", "I'm"),
        (r"\byour\b", "my"),
        (r"\byou\b", "I"),
        (r"\bthe customer'?s\b", "your"),
        (r"\bthe customer\b", "you"),
        (r"\bthe callee'?s\b", "your"),
        (r"\bthe callee\b", "you"),
        (r"\bthem\b", "you"),
        (r"\btheir\b", "your"),
        (r"\bthey are\b", "you are"),
        (r"\bthey\b", "you"),
        (r"\bhis or her\b", "your"),
        (r"\bhim or her\b", "you"),
    ]
    out = s
    placeholder = []
    for i, (pattern, repl) in enumerate(swaps):
        token = f"\x00{i}\x00"
        out = re.sub(pattern, token, out, flags=re.I)
        placeholder.append((token, repl))
    for token, repl in placeholder:
        out = out.replace(token, repl)
    if m := _CALL_TO.match(s):
        out = (
            "I'm calling to "
            + _second_person(m.group(1)).rstrip(".")[0].lower()
            + _second_person(m.group(1)).rstrip(".")[1:]
        )
    out = re.sub(r"^I am (a|an) [^,]+? (calling|who calls)", r"I'm \2", out)
    out = re.sub(r"^I am calling\b", "I'm calling", out)
    return out[0].upper() + out[1:] + "." if out else out


_ASKS_ALREADY = (
    "do you",
    "are you",
    "would you",
    "can you",
    "could you",
    "is there",
    "what",
    "when",
    "how",
)


#: "Ask them to press 1 to confirm the appointment": a key the callee is to press, and why.
_ASK_KEY = re.compile(
    r"^(?:ask|tell) (?:them |the customer |the callee |him |her )?to press ([0-9*#])\b\s*(.*)$",
    re.I,
)
#: How the policy asks for a key (what `asked_key` reads back).
_KEY_QUESTION = re.compile(r"^Please press ([0-9*#]) on your keypad\b")


def asked_key(question: str | None) -> str | None:
    """The key `question` asks the callee to press (None: it asks for words)."""
    match = _KEY_QUESTION.match(question or "")
    return match.group(1) if match else None


def _question_in(sentence: str) -> str | None:
    """The question to ask the callee, when the prompt's sentence is one or asks for one."""
    if m := _ASK_KEY.match(sentence.rstrip(".")):
        why = _lower_first(_second_person(m.group(2)).rstrip(".")) if m.group(2) else ""
        return f"Please press {m.group(1)} on your keypad" + (f" {why}." if why else ".")
    if sentence.endswith("?"):
        if sentence.lower().startswith(_ASKS_ALREADY):
            return sentence
        return _second_person(sentence).rstrip(".")
    if m := _ASK.match(sentence.rstrip(".")):
        return "Could you tell me if " + _lower_first(_second_person(m.group(1)).rstrip(".")) + "?"
    if m := _ASK_WHAT.match(sentence.rstrip(".")):
        return (
            "Could you tell me "
            + m.group(1).lower()
            + " "
            + _lower_first(_second_person(m.group(2)).rstrip("."))
            + "?"
        )
    return None


def _purpose_in(sentence: str) -> str:
    """Why the agent calls, as the agent says it (without "I'm Sam from Acme")."""
    purpose = re.sub(r"^I am [A-Z][a-z]+(?: from [^,.]+)?[,.]?\s*", "", _second_person(sentence))
    purpose = re.sub(r"^I'm [A-Z][a-z]+(?: from [^,.]+)?[,.]?\s*", "", purpose)
    if purpose and not purpose[0].isupper():
        purpose = purpose[0].upper() + purpose[1:]
    return purpose


def _is_detail(sentence: str) -> bool:
    """A fact to tell the callee (not an instruction, a style or the agent's name)."""
    return (
        not _IMPERATIVE.match(sentence)
        and not _STYLE.search(sentence)
        and not _NAME.search(sentence)
        and len(sentence.split()) > 3
    )


@dataclass(frozen=True)
class Brief:
    """What the policy understood from the prompt."""

    name: str
    company: str
    purpose: str
    questions: tuple[str, ...]
    details: tuple[str, ...]
    price: str | None

    @classmethod
    def from_prompt(cls, prompt: str) -> Brief:
        name = next(
            (m.group(1) for m in _NAME.finditer(prompt) if m.group(1) not in _NOT_NAMES), "Alex"
        )
        company_match = _COMPANY.search(prompt)
        company = company_match.group(1).strip() if company_match else ""
        if company == name:
            company = ""
        purpose = ""
        questions: list[str] = []
        details: list[str] = []
        for sentence in split_sentences(prompt):
            question = _question_in(sentence)
            if question is not None:
                questions.append(question)
            elif not purpose and _PURPOSE_WORDS.search(sentence):
                purpose = _purpose_in(sentence)
            elif _is_detail(sentence):
                details.append(_second_person(sentence))
        price = _PRICE.search(prompt)
        return cls(
            name=name,
            company=company,
            purpose=purpose,
            questions=tuple(q[0].upper() + q[1:] for q in questions if q),
            details=tuple(details),
            price=price.group(1) if price else None,
        )

    @property
    def introduction(self) -> str:
        return f"this is {self.name}" + (f" from {self.company}" if self.company else "")


@dataclass(frozen=True)
class Handoff:
    """Hand the callee to a person once the reply has been heard: the department they asked
    for (None: the default), and the line a warm transfer's person hears first."""

    department: str | None
    summary: str


#: What the agent says before it hands the callee over.
CONNECTING = "Of course, I'll connect you now."
#: "Are you a robot?", "Is this a real person?", "Am I talking to a machine?".
ROBOT = re.compile(
    r"\b(are you|is (this|that|it)|am i (talking|speaking) (to|with))"
    r"( (a|an|just|really|actually|even|the|some))* "
    r"(robot|bot|machine|computer|ai|artificial intelligence|automated|recording|"
    r"human(?! resources)|real person|real(?=\s*([.?!,]|$)))\b"
)
#: The honest answer to it (a flow without a global for it says the same).
ROBOT_REPLY = "Yes, I'm an AI assistant."
#: What it says when the call has nowhere to transfer to.
NO_TRANSFER = "I'm sorry, there is no one I can connect you to on this call."
#: What it says when asked again after a transfer that did not reach the person.
NOT_AGAIN = "I'm sorry, no one can take your call right now, so I'll help you myself."
ANYTHING_ELSE = "Is there anything else I can help you with?"
#: The policy's fixed lines, shared with the flow derived from it (derived_flow.py).
DO_YOU_HAVE_A_MINUTE = "Do you have a minute?"
GO_AHEAD = "Would you like to go ahead?"
WRONG_PERSON_REPLY = "I'm sorry for the trouble. Have a good day. Goodbye."
NOT_INTERESTED_REPLY = "I understand. Thank you for your time, and have a nice day. Goodbye."
GOODBYE_REPLY = "Thank you for your time. Goodbye."
ALL_SET_REPLY = "Wonderful, thank you. You're all set. Goodbye."
AGREED_REPLY = "Wonderful, you're all set. Thank you for your time. Goodbye."
DECLINED_REPLY = "Alright, thank you for your time. Goodbye."
#: What each kind of answer is met with before the next question ("Great. <question>").
YES_LEAD, NO_LEAD, OTHER_LEAD = "Great.", "No problem.", "I see."


def later_reply(heard: str) -> str:
    """The goodbye to "call me later" (a day named: that day)."""
    when = "tomorrow afternoon" if "tomorrow" in heard.lower() else "at a better time"
    return f"Of course. I'll call you back {when}. Thank you, goodbye."


def greeting(brief: Brief, disclosure: str) -> str:
    """The opening made from the prompt, before its first question: hello, who is calling,
    the disclosure and why."""
    return " ".join(
        part for part in (f"Hi, {brief.introduction}.", disclosure, brief.purpose) if part
    )


@dataclass
class Reply:
    text: str
    #: Hang up once this reply has been heard.
    end_call: bool = False
    intent: Intent | None = None
    #: Hand the callee to a person once this reply has been heard.
    transfer: Handoff | None = None
    #: Keys to press after the text (voice_agent.keypad): a phone menu's choice.
    keys: str = ""


def _goodbye_last(heard: str) -> bool:
    """The turn's last sentence says goodbye."""
    sentences = [part for part in re.split(r"[.!?]+", heard) if part.strip()]
    return bool(sentences) and classify(sentences[-1]) is Intent.GOODBYE


def owing(disclosure: str | None, reply: Reply) -> Reply:
    """A reply that ends the conversation or hands it over (a transfer, an opt-out, a
    goodbye), after the AI disclosure when the cut opening still owes it: it is said before
    anything else the agent does, however short the call."""
    if not disclosure:
        return reply
    return replace(reply, text=f"{disclosure} {reply.text}")


@dataclass
class OfflinePolicy:
    prompt: str
    #: The call's fixed opening line (None: an opening made from the prompt).
    first_sentence: str | None = None
    #: The call's voicemail message (None: a short one made from the prompt).
    voicemail_text: str | None = None
    #: The AI disclosure and recording notice, said in the opening ("" for none).
    disclosure: str = ""
    #: Whether the call can be handed to a person, and the departments the callee may name.
    can_transfer: bool = False
    departments: tuple[str, ...] = ()
    brief: Brief = field(init=False)
    asked: int = field(default=0, init=False)
    turns: int = field(default=0, init=False)
    told: int = field(default=0, init=False)
    #: The last question asked and not yet answered (re-asked after "who is calling?").
    pending: str | None = field(default=None, init=False)
    offered: bool = field(default=False, init=False)
    greeted: bool = field(default=False, init=False)
    ended: bool = field(default=False, init=False)
    #: The question the last reply asked (taken back if the callee cut in before it was said).
    _just_asked: str | None = field(default=None, init=False)
    #: The opening's parts, while it is the last reply: what a cut-off opening still owes.
    _opening: tuple[str, ...] = field(default=(), init=False)
    #: What the opening did not get to say when the callee cut in (said on their turn).
    _unsaid: tuple[str, ...] = field(default=(), init=False)
    #: The comeback's apology after a failed transfer, while it is the last reply: owed on
    #: the callee's turn if they cut in before it was said ("Hello? Are you still there?").
    _apology: str | None = field(default=None, init=False)
    #: The opt-out's reply (the disclosure it owed, the acknowledgement), while it is the last
    #: reply: what the callee cut in on before hearing it is said again on their turn ("Bye."
    #: over it), so a callee who opts out hears that they will not be called again.
    _confirming: tuple[str, ...] = field(default=(), init=False)
    #: A transfer of this call already failed (busy, no answer): not tried again.
    transfer_failed: bool = field(default=False, init=False)
    #: The keys already pressed on each phone menu heard (by the menu's keys): a menu said
    #: again after a refusal (a closed department, a wrong choice) gets another option.
    _menus: dict[tuple[str, ...], frozenset[str]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.brief = Brief.from_prompt(self.prompt)

    # What to say -------------------------------------------------------------------------

    def opening(self) -> Reply:
        self.greeted = True
        b = self.brief
        self.asked, self.pending = 0, None
        if self.first_sentence:
            # Said as given, then the disclosure; the prompt's questions follow on the callee's
            # turns (the last part, a question in the other opening, is empty here).
            self._opening = (self.first_sentence, self.disclosure, "")
            return Reply(" ".join(part for part in self._opening if part))
        question = self._next_question() or DO_YOU_HAVE_A_MINUTE
        self._opening = (f"Hi, {b.introduction}.", self.disclosure, b.purpose, question)
        return Reply(" ".join(part for part in self._opening if part))

    def llm_opening(self) -> Reply:
        """The LLM path's opening when the call has no first sentence: a hello and the
        disclosure (the model introduces itself after it). Cut before the disclosure was said,
        the disclosure is owed (`owed_disclosure`)."""
        self.greeted = True
        self._opening = (llm_opening(None, "").strip(), self.disclosure, "")
        return Reply(llm_opening(None, self.disclosure))

    def owed_disclosure(self) -> str | None:
        """On the LLM path, at the callee's turn: the disclosure the cut opening did not get to
        say, or None (taken: it is owed once; the model answers the turn after it)."""
        return self._owed(self._take_unsaid())

    def _take_unsaid(self) -> tuple[str, ...]:
        """What the cut opening still owes, taken (the opening is over once the callee spoke)."""
        unsaid, self._opening, self._unsaid = self._unsaid, (), ()
        return unsaid

    def reopen(self) -> None:
        """The closing words were talked over; keep listening and answer the next turn."""
        self.ended = False

    def interrupted(self, spoken: str) -> None:
        """The callee cut in on the last reply after `spoken` had been said: keep what was
        said, and take back what was not. An opening cut before a word was said is said again
        whole; one cut later owes only its unsaid parts (said on the callee's turn, never the
        introduction twice). A question not yet said is not pending: it is asked next."""
        said = _plain(spoken)
        self._confirming = tuple(p for p in self._confirming if _plain(p) not in said)
        if self._apology and _plain(self._apology) not in said:
            self._unsaid = (self._apology,)
        self._apology = None
        if self._opening:
            if not said:
                self.greeted, self.asked, self.pending, self._opening = False, 0, None, ()
                return
            self._unsaid = tuple(p for p in self._opening[1:-1] if p and _plain(p) not in said)
        if self._just_asked and _plain(self._just_asked) not in said:
            self.asked -= 1
            self.pending = None
        self._just_asked = None

    def time_up(self) -> Reply:
        self.ended = True
        self._just_asked, self._opening = None, ()
        return Reply(
            "I'm sorry, we have reached the time limit for this call. Thank you for your time. Goodbye.",
            True,
        )

    def voicemail_message(self) -> Reply:
        self.ended = True
        if self.voicemail_text:
            return Reply(self.voicemail_text, True, Intent.VOICEMAIL)
        b = self.brief
        text = f"Hi, {b.introduction}."
        if b.purpose:
            text += f" {b.purpose}"
        text += " Please call us back when you can. Thank you, goodbye."
        return Reply(text, True, Intent.VOICEMAIL)

    def opt_out(self, owed: str | None = None) -> Reply:
        """The callee asked not to be called again: acknowledge it (after `owed`, the
        disclosure a cut opening did not say) and hang up."""
        self.greeted = True
        self._confirming = tuple(part for part in (owed, OPT_OUT_REPLY) if part)
        return self._close(" ".join(self._confirming), Intent.OPT_OUT)

    def confirm_again(self) -> Reply | None:
        """On the callee's turn after the opt-out's reply: what of it they cut in on before
        hearing it, said again, and the hang-up; None when they heard it all."""
        unheard, self._confirming = self._confirming, ()
        return self._close(" ".join(unheard), Intent.OPT_OUT) if unheard else None

    def _next_question(self) -> str | None:
        if self.asked < len(self.brief.questions):
            question = self.brief.questions[self.asked]
            self.asked += 1
            self.pending = self._just_asked = question
            return question
        return None

    def _close(self, text: str, intent: Intent) -> Reply:
        self.ended = True
        return Reply(text, True, intent)

    def respond(self, heard: str) -> Reply:
        """The reply to one callee turn."""
        menu = self._menu(heard)
        if menu is not None:
            return menu
        self.turns += 1
        if again := self.confirm_again():
            return again
        self._just_asked = None
        unsaid = self._take_unsaid()
        self._apology = None
        intent = classify(heard)
        answered, self.pending = self.pending, None
        if intent is Intent.OPT_OUT:
            return self.opt_out(self._owed(unsaid))
        if not self.greeted:
            if intent is Intent.VOICEMAIL:
                return self.voicemail_message()
            if intent is Intent.TRANSFER and self.can_transfer:
                # Asked for a person before the opening was heard: who calls and the
                # disclosure, then the transfer.
                self.opening()
                said = " ".join(filter(None, self._opening[:2]))
                handoff = self._transfer(heard)
                return replace(handoff, text=f"{said} {handoff.text}")
            return Reply(self.opening().text, intent=intent)
        if ROBOT.search(" ".join(heard.lower().split())):
            # Answered truthfully, then the question still open (it answered none).
            question = answered or self._next_question() or ANYTHING_ELSE
            self.pending = question
            return Reply(f"{ROBOT_REPLY} {question}", intent=Intent.WHO)
        if intent is Intent.TRANSFER or self._names_department(heard):
            self.pending = answered  # a request for a person answers no question
            return owing(self._owed(unsaid), self._transfer(heard))
        closing = self._closing(intent, heard)
        if closing is None and _goodbye_last(heard):
            # A question, then goodbye ("What is this about? Okay, thanks. Goodbye."): the
            # callee is leaving; answering the question would keep a line open nobody is on.
            closing = self._close(GOODBYE_REPLY, Intent.GOODBYE)
        if closing is not None:
            return owing(self._owed(unsaid), closing)
        if unsaid and intent is not Intent.WHO:
            # The opening was cut after the introduction: go on with the rest of it.
            question = answered or self._next_question() or "Do you have a minute?"
            self.pending = question
            return Reply(" ".join((*unsaid, question)), intent=intent)
        if intent is Intent.YES:
            return self._yes(heard, answered)
        return self._go_on(intent, answered, self._owed(unsaid))

    def _owed(self, unsaid: tuple[str, ...]) -> str | None:
        """The disclosure, when the cut opening did not get to say it (or no opening was
        said: the callee spoke first, or talked over it before a word was said)."""
        if not self.disclosure:
            return None
        return self.disclosure if not self.greeted or self.disclosure in unsaid else None

    def _names_department(self, heard: str) -> bool:
        """The callee asks for one of the call's departments by name ("sales, please")."""
        asks = re.search(
            r"\b(speak|talk|connect|transfer|put me|through|department)\b", heard.lower()
        )
        return bool(asks) and self._department(heard) is not None

    def _department(self, heard: str) -> str | None:
        words = _plain(heard)
        named = (d for d in self.departments if d.casefold() != "default")
        return next((d for d in named if re.search(rf"\b{re.escape(_plain(d))}\b", words)), None)

    def _transfer(self, heard: str) -> Reply:
        """The callee asked for a person: the short line, then the transfer (or, with nowhere
        to go, the conversation goes on)."""
        if not self.can_transfer or self.transfer_failed:
            # The question they have not answered yet, else the next one.
            question = self.pending or self._next_question()
            self.pending = question
            why = NOT_AGAIN if self.can_transfer else NO_TRANSFER
            return Reply(f"{why} {question or ANYTHING_ELSE}", intent=Intent.TRANSFER)
        department = self._department(heard)
        b = self.brief
        caller = b.name + (f" from {b.company}" if b.company else "")
        summary = (
            f"A call from {caller}, the AI assistant: the callee asked to speak to "
            f"{department or 'a person'}."
        )
        self.ended = True
        return Reply(CONNECTING, intent=Intent.TRANSFER, transfer=Handoff(department, summary))

    def resumed(self, said: list[str], apology: str) -> Reply:
        """The agent is back after a transfer that did not reach the person (`said`: its own
        lines so far): the apology, then the next question it had not asked."""
        self.greeted, self.ended, self.transfer_failed = True, False, True
        heard = " ".join(_plain(line) for line in said)
        while self.asked < len(self.brief.questions) and (
            _plain(self.brief.questions[self.asked]) in heard
        ):
            self.asked += 1
        question = self._next_question()
        self._apology, self._opening, self._unsaid = apology, (), ()
        return Reply(f"{apology} {question or ANYTHING_ELSE}")

    def _menu(self, heard: str) -> Reply | None:
        """A phone menu is answered with the key of the option the prompt asks for (voice_agent
        .ivr), or not at all while none fits (it may say more); its system's own talk ("Thanks
        for calling", "Please hold") is not answered either. None: not a phone system."""
        options = ivr.menu_options(heard)
        if not options:
            return Reply("", intent=Intent.MENU) if ivr.system_talk(heard) else None
        menu = tuple(option.key for option in options)
        # A menu said again after its choice led nowhere gets another; said again because the
        # key came late (or was not heard), the same one.
        tried = self._menus.get(menu, frozenset()) if ivr.refused(heard) else frozenset()
        key = ivr.choose(options, self.prompt, tried=tried)
        if key is None:
            return Reply("", intent=Intent.MENU)
        self._menus[menu] = tried | {key}
        return Reply("", intent=Intent.MENU, keys=key)

    def pressed(self, key: str) -> Reply:
        """The callee pressed `key`: the answer when the policy asked for a key (thanks and on,
        or the key asked for again), else none."""
        wanted = asked_key(self.pending)
        if wanted is None:
            return Reply("", intent=Intent.KEY)
        self.turns += 1
        self._just_asked = None
        if key != wanted:
            return Reply(f"I heard {key}. {self.pending}", intent=Intent.KEY)
        self.pending = None
        question = self._next_question()
        if question:
            return Reply(f"Thank you, I got your {key}. {question}", intent=Intent.KEY)
        return self._close(
            f"Thank you, I got your {key}: that's confirmed. Have a good day. Goodbye.", Intent.KEY
        )

    def _closing(self, intent: Intent, heard: str) -> Reply | None:
        """The last words, for what always ends the call (voicemail, wrong person, not
        interested, later, goodbye)."""
        if intent is Intent.VOICEMAIL:
            return self.voicemail_message()
        if intent is Intent.OPT_OUT:
            return self.opt_out()
        if intent is Intent.WRONG_PERSON:
            return self._close(WRONG_PERSON_REPLY, intent)
        if intent is Intent.NOT_INTERESTED:
            return self._close(NOT_INTERESTED_REPLY, intent)
        if intent is Intent.LATER:
            return self._close(later_reply(heard), intent)
        if intent is Intent.GOODBYE:
            return self._close(GOODBYE_REPLY, intent)
        return None

    def _yes(self, heard: str, answered: str | None) -> Reply:
        """A yes: the next question, a detail when asked for more, else the offer or the end."""
        intent = Intent.YES
        b = self.brief
        question = self._next_question()
        if question:
            return Reply(f"{YES_LEAD} {question}", intent=intent)
        if self.told < len(b.details) and re.search(
            r"tell me more|more (about|details|information)|interest", heard.lower()
        ):
            detail = b.details[self.told]
            self.told += 1
            self.offered = True
            return Reply(f"Of course. {detail} Would you like to go ahead?", intent=intent)
        if answered:
            return self._close(ALL_SET_REPLY, intent)
        if not self.offered:
            self.offered = True
            return Reply(f"{YES_LEAD} {GO_AHEAD}", intent=intent)
        return self._close(AGREED_REPLY, intent)

    def _go_on(self, intent: Intent, answered: str | None, owed: str | None = None) -> Reply:
        """Every other turn keeps the conversation going (who, price, no, hello, a question);
        `owed`: the disclosure a cut opening did not say, said with who is calling."""
        b = self.brief
        if intent is Intent.WHO:
            self.pending = answered
            text = f"Sorry, {b.introduction}." + (f" {owed}" if owed else "")
            if b.purpose:
                text += f" {b.purpose}"
            question = self.pending or self._next_question()
            return Reply(
                text + (f" {question}" if question else " Do you have a minute?"), intent=intent
            )
        if intent is Intent.LOOKUP:
            question = self._next_question()
            return Reply(
                f"{LOOKUP_REPLY} {question or 'Is there anything else I can help with?'}",
                intent=intent,
            )
        if intent is Intent.PRICE:
            text = (
                f"It's {b.price}."
                if b.price
                else "I'll have a colleague send you the exact pricing."
            )
            question = self._next_question()
            return Reply(f"{text} {question or 'Would you like to go ahead?'}", intent=intent)
        if intent is Intent.NO:
            question = self._next_question()
            if question:
                return Reply(f"{NO_LEAD} {question}", intent=intent)
            return self._close(DECLINED_REPLY, intent)
        if intent is Intent.GREETING:
            question = answered or self._next_question()
            self.pending = question
            return Reply(
                f"Nice to talk to you. {question or 'Do you have a minute?'}", intent=intent
            )
        if intent is Intent.QUESTION:
            question = self._next_question()
            return Reply(
                "That's a good question; a colleague will follow up with the details. "
                + (question or "Is there anything else I can help with?"),
                intent=intent,
            )
        question = self._next_question()
        if question:
            return Reply(f"{OTHER_LEAD} {question}", intent=intent)
        if self.turns >= 6:
            return self._close(GOODBYE_REPLY, intent)
        return Reply(f"{OTHER_LEAD} {GO_AHEAD}", intent=intent)
