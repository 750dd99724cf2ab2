"""The articles a fresh install starts its blog with (written for it, about outbound AI calling).
Seeded once: an admin who deletes them does not get them back on the next start."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession

from callwright.content import repository as content
from callwright.content.sanitize import clean_html
from callwright.models import Post

SEEDED_FLAG = "blog_seeded"
AUTHOR = "Callwright Team"

POSTS: list[dict[str, str]] = [
    {
        "date": "2025-06-27",
        "title": "Callwright is live: outbound calls made by an AI agent",
        "description": "Write a prompt, pick a voice, enter a number. What the first release does and how a call works from end to end.",
        "content": """
<p>Today we are opening Callwright to everyone. It places outbound phone calls with an AI voice agent that follows your instructions, holds a natural conversation and hands you the transcript, the recording and the bill the moment the call ends.</p>
<h2>How a call works</h2>
<ol>
<li><strong>You write the prompt.</strong> Who the agent is, why it is calling and what a good outcome looks like.</li>
<li><strong>You pick a voice and a number.</strong> Set the maximum length, how patient the agent is with interruptions and whether it waits for the callee to speak first.</li>
<li><strong>You watch it live.</strong> Every line appears in the transcript as it is spoken; you can stop the call at any time.</li>
</ol>
<p>Each call is recorded in stereo (the agent on one side, the person on the other), transcribed and can be analysed for its outcome, sentiment and key facts.</p>
<h2>Simple pricing</h2>
<p>Calls are billed per started minute at <strong>$0.49</strong> from a prepaid balance. Before a call starts we reserve its maximum cost, so a balance can never go below zero, and release the unused part when it ends.</p>
<blockquote>Try it from the home page: enter your number and the agent will call you for a two-minute demo.</blockquote>
""",
    },
    {
        "date": "2025-07-08",
        "title": "Writing a prompt your voice agent can follow",
        "description": "Five habits that turn a vague instruction into calls that reach their goal, with a template you can copy.",
        "content": """
<p>The prompt is the agent's whole briefing. Agents do well with the same things a new colleague would need on their first day.</p>
<h2>1. Say who is calling and why</h2>
<p>Start with one sentence: <em>"You are Sarah from Bright Dental, calling to confirm tomorrow's cleaning at 3 pm."</em> The callee hears a name and a reason within the first five seconds.</p>
<h2>2. Define the outcome</h2>
<p>Confirmed, rescheduled, call back later, not interested: list the outcomes you care about so the agent steers toward one of them and knows when it is done.</p>
<h2>3. Keep replies short</h2>
<p>On the phone, one or two sentences per turn feels natural. Long monologues invite interruptions.</p>
<h2>4. Plan for voicemail and wrong numbers</h2>
<p>Tell the agent what message to leave, and to apologise and hang up politely when it reached the wrong person.</p>
<h2>5. Give it facts, not guesses</h2>
<p>Opening hours, prices, the address: anything the agent may be asked should be in the prompt.</p>
<pre><code>You are [name] from [company], calling [person] about [reason].
Goal: [outcome]. If they are busy, offer to call back later.
Keep every reply to one or two sentences.
Facts: [hours, prices, address].
If you reach voicemail, leave this message: [message].</code></pre>
""",
    },
    {
        "date": "2025-08-14",
        "title": "Why we built our own voice pipeline",
        "description": "Speech-to-text, a language model and text-to-speech, joined by turn-taking that knows when to speak and when to stop.",
        "content": """
<p>A phone conversation is a race against silence. People expect a reply within about a second, and they expect the other side to stop talking when they interrupt. That is why Callwright runs its own pipeline instead of reselling one.</p>
<h2>Listening</h2>
<p>A voice activity detector decides when the callee is speaking. As soon as they pause, we start transcribing what they said, so the words are ready by the time the pause turns out to be the end of their turn.</p>
<h2>Thinking</h2>
<p>The transcript goes to the language model together with your prompt and the conversation so far. Replies stream back sentence by sentence.</p>
<h2>Speaking</h2>
<p>Each sentence is synthesised while the next one is still being written, so the agent starts talking after the first sentence rather than after the whole reply.</p>
<h2>Yielding</h2>
<p>When the callee talks over the agent, the agent stops within a fraction of a second and listens. How quickly it yields is the <em>interruption tolerance</em> setting on the Send Call screen.</p>
<p>We measure all of this on every call: end of speech to transcript, to reply, to the first audio the callee hears.</p>
""",
    },
    {
        "date": "2025-09-02",
        "title": "Appointment reminders that people actually answer",
        "description": "How a dental practice cut no-shows with a short reminder call, and what made those calls work.",
        "content": """
<p>Text reminders are easy to ignore. A short call that asks a direct question ("Can you still make it tomorrow at 3?") gets an answer, and an answer is what a practice needs to fill or free the slot.</p>
<h2>What worked</h2>
<ul>
<li><strong>Calling the afternoon before</strong>, when people can still rearrange their day.</li>
<li><strong>One question per call.</strong> Confirm, or offer the two nearest free slots.</li>
<li><strong>A clear voicemail</strong> with the practice's number, so a missed call still does its job.</li>
</ul>
<h2>What we measured</h2>
<p>Call Analysis shows successful and failed calls by weekday, the minutes used and the balance spent. The practice saw that Monday reminders (for Tuesday appointments) had the most unanswered calls and moved them to Sunday evening.</p>
<table>
<thead><tr><th>Outcome</th><th>Share of calls</th></tr></thead>
<tbody>
<tr><td>Confirmed</td><td>71%</td></tr>
<tr><td>Rescheduled</td><td>12%</td></tr>
<tr><td>Voicemail</td><td>14%</td></tr>
<tr><td>Cancelled</td><td>3%</td></tr>
</tbody>
</table>
""",
    },
    {
        "date": "2025-10-21",
        "title": "Calling responsibly: consent, hours and opt-outs",
        "description": "Automated calls are regulated. A practical checklist before you start an outbound campaign.",
        "content": """
<p>AI calls are powerful, and the rules that govern automated calling apply to them. This is not legal advice, but it is the checklist we use with every customer.</p>
<h2>Before you call</h2>
<ul>
<li>Call only people who gave you their number and agreed to be contacted for this purpose.</li>
<li>Keep your do-not-call list up to date and remove numbers the same day someone asks.</li>
<li>Check the local rules for the countries you call: consent, disclosure and calling hours differ.</li>
</ul>
<h2>During the call</h2>
<ul>
<li>Have the agent say who is calling and on whose behalf in its first sentence.</li>
<li>Respect calling hours in the callee's time zone.</li>
<li>Offer a way to opt out, and honour it.</li>
</ul>
<h2>After the call</h2>
<p>Recordings and transcripts are personal data. Keep them only as long as you need them, and restrict who can listen. Anyone who receives a call that went wrong can be heard: every call in your log has a <em>Report</em> button that sends it to our team.</p>
""",
    },
]


async def seed_posts(session: AsyncSession) -> int:
    """Add the starter articles once; returns how many were added."""
    if await content.setting(session, SEEDED_FLAG) is not None:
        return 0
    for post in POSTS:
        date = datetime.fromisoformat(post["date"]).replace(hour=9, tzinfo=UTC)
        session.add(
            Post(
                title=post["title"],
                description=post["description"],
                content=clean_html(post["content"].strip()),
                admin_name=AUTHOR,
                post_date=date,
                created_at=date,
                updated_at=date,
            )
        )
    await content.set_setting(session, SEEDED_FLAG, "1", None)
    return len(POSTS)
