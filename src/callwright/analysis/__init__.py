"""Post-call analysis (the calls run it once a call ends: calls/post_call.py): summary, outcome, sentiment and key facts, each fact with the transcript
lines it comes from; and, with the call's own settings, a disposition chosen from its
`dispositions` and the fields its `analysis_schema` names, each with the line it comes from.
`answer_with_evidence` answers the /v1 API's ad-hoc questions about a call the same two ways,
each answer with the line it comes from (offline: analysis/asked.py).

With an LLM endpoint configured (LLM_BASE_URL) the transcript goes to it with a JSON-only
instruction; otherwise, or when the endpoint fails or answers badly, a transparent offline method
runs: keyword rules for the outcome, a small word list for sentiment, and the callee's lines that
carry a time, a date, a number or an answer as key facts; the disposition is the outcome mapped
onto the given list by its words (and when the call has dispositions, the analysis's outcome is
always one of them: `disposition_for`), and each field is the most relevant callee line (by the words
it shares with the field's name and description, and with the agent's question before it) that
holds a value of the field's type. The result says which method made it."""

from callwright.analysis.fields import call_day, date_in
from callwright.analysis.llm import AnalysisLLM, analyze, analyze_with_llm
from callwright.analysis.offline import analyze_offline, choose_disposition, disposition_for
from callwright.analysis.questions import answer_questions, answer_with_evidence
from callwright.analysis.result import Analysis, Answer, ExtractedField, KeyFact

__all__ = [
    "Analysis",
    "AnalysisLLM",
    "Answer",
    "ExtractedField",
    "KeyFact",
    "analyze",
    "analyze_offline",
    "analyze_with_llm",
    "answer_questions",
    "answer_with_evidence",
    "call_day",
    "choose_disposition",
    "date_in",
    "disposition_for",
]
