"""One call's voice pipeline, from the carrier's media websocket to the recording.

transport.input -> STT -> user turns (Silero VAD) -> brain (offline policy or LLM) -> TTS
    -> closer -> transport.output (+ ambience) -> stereo recorder -> assistant turns
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal, cast

import numpy as np
from fastapi import WebSocket
from pipecat.audio.vad.vad_analyzer import VADParams
from pipecat.frames.frames import (
    EndFrame,
    LLMFullResponseEndFrame,
    LLMFullResponseStartFrame,
    LLMRunFrame,
    LLMTextFrame,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineParams, PipelineWorker
from pipecat.processors.aggregators.llm_response_universal import (
    LLMAssistantAggregator,
    LLMContextAggregatorPair,
    LLMUserAggregator,
    LLMUserAggregatorParams,
)
from pipecat.processors.audio.audio_buffer_processor import AudioBufferProcessor
from pipecat.processors.frame_processor import FrameProcessor
from pipecat.transports.websocket.fastapi import FastAPIWebsocketParams
from pipecat.turns.user_stop.base_user_turn_stop_strategy import BaseUserTurnStopStrategy
from pipecat.turns.user_stop.speech_timeout_user_turn_stop_strategy import (
    SpeechTimeoutUserTurnStopStrategy,
)
from pipecat.turns.user_turn_strategies import UserTurnStrategies
from pipecat.workers.runner import WorkerRunner

from callwright.speech import tts
from callwright.speech.stt import Transcriber
from callwright.voice_agent import turn_end
from callwright.voice_agent.ambience import AmbienceMixer
from callwright.voice_agent.brain import (
    LLMConfig,
    LLMOpener,
    OfflineBrain,
    brain_context,
    keep_what_was_said,
    llm_brain,
)
from callwright.voice_agent.captions import AgentCaptions, CalleeCaptions, CaptionSink
from callwright.voice_agent.closer import CallCloser
from callwright.voice_agent.contract import (
    ActionReport,
    AgentEnding,
    Answerer,
    CallHooks,
    CallPlan,
    Recording,
)
from callwright.voice_agent.flow_brain import (
    FlowBrain,
    FlowResumeFrame,
    FlowStartFrame,
    answer_text,
)
from callwright.voice_agent.flow_graph import FlowGraph, ToolAction
from callwright.voice_agent.flow_llm import ChatModel, LLMChooser
from callwright.voice_agent.flow_runner import EdgeChooser, FlowRunner, OfflineChooser
from callwright.voice_agent.frames import FinalReplyFrame
from callwright.voice_agent.keypad import KeysFrame, KeysHeard, KeysSent
from callwright.voice_agent.logs import quiet_pipecat
from callwright.voice_agent.policy import (
    Intent,
    OfflinePolicy,
    Reply,
    classify,
    opts_out,
)
from callwright.voice_agent.services import InlineSileroVAD, LocalTTSService, WhisperSTTService
from callwright.voice_agent.tool_runner import Reach
from callwright.voice_agent.tools import GoodbyeWatch, ToolCalls
from callwright.voice_agent.transfer import CANNOT_TRANSFER, TransferFrame, back_line
from callwright.voice_agent.transport import CarrierTransport, MarkTwilioSerializer
from callwright.voice_agent.turn_end import TurnEndStrategy
from callwright.voice_agent.turn_timer import TurnTimer, TurnTimerObserver

__all__ = ["CallSession", "Engines", "LLMConfig"]

log = logging.getLogger(__name__)
# CALLWRIGHT_PIPECAT_LOG=DEBUG shows every frame decision (turns, interruptions, timings).
quiet_pipecat(os.environ.get("CALLWRIGHT_PIPECAT_LOG", "WARNING"))
RATE = 8000
#: How often (seconds of wall time) the recording so far is handed to the hooks' spool.
SPOOL_EVERY_SECONDS = 1.0
#: Silence that ends a stretch of speech (Whisper has usually started on it already: the
#: speculative transcription in WhisperSTTService; see docs/performance.md).
VAD_STOP_SECS = 0.3
#: With CALLWRIGHT_TURN_END=fixed (the strategy before issue 31), a pause shorter than this
#: after the VAD stop keeps the callee's turn open: the agent answers after at least 0.3 + 0.4 s
#: of silence, or when the transcript is ready if later. By default the pause depends on whether
#: the turn sounds and reads finished (voice_agent/turn_end.py).
USER_PAUSE_SECS = 0.4
#: With wait_for_greeting, the agent speaks first after this much silence from the callee.
GREETING_WAIT_SECS = 4.0


def policy_for(plan: CallPlan) -> OfflinePolicy:
    """The offline policy for the call's plan (the LLM path uses it for its fixed lines)."""
    return OfflinePolicy(
        plan.prompt,
        first_sentence=plan.first_sentence,
        voicemail_text=plan.voicemail_message,
        disclosure=plan.disclosure,
        can_transfer=plan.can_transfer,
        departments=plan.transfer_departments,
    )


@dataclass
class Engines:
    """Models shared by every call in this process, and the LLM endpoint (None: offline policy)."""

    transcriber: Transcriber
    llm: LLMConfig | None = None
    #: Which targets custom tools may call (the webhooks' request-forgery rules).
    reach: Reach = field(default_factory=Reach)


class CallSession:
    """One live call: builds its pipeline, starts the conversation when the callee is connected,
    ends the pipeline when they hang up, and hands the transcript and recording to the call flows
    when it is over."""

    def __init__(
        self,
        websocket: WebSocket,
        plan: CallPlan,
        hooks: CallHooks,
        engines: Engines,
        *,
        stream_sid: str,
        speed: float = 1.0,
    ) -> None:
        self.plan = plan
        self.hooks = hooks
        self.engines = engines
        self.speed = speed
        self.policy = policy_for(plan)
        self._hung_up = False
        self._spoke_first = False
        #: Who answered (the callee's first words tell), and why the agent will hang up.
        self._answerer: Answerer | None = "human" if plan.leg == "resume" else None
        self._ending: AgentEnding = "completed"
        self._timers: list[asyncio.Task[None]] = []
        #: When the callee was connected (monotonic): a flow's steps are timed from it.
        self._connected_at: float | None = None
        #: The brain of a call on a flow (None: a prompt's call).
        self._flow: FlowBrain | None = None
        #: Captions and transcript lines being reported (see _write).
        self._writes: list[asyncio.Future[None]] = []
        self._audio = b""
        self._rate = RATE
        self.transport = self._build_transport(websocket, stream_sid)
        self.user_turns, self.assistant_turns = self._build_turns()
        self.recorder = AudioBufferProcessor(num_channels=2)
        #: How much of each track has been handed to the hooks' spool (see _spool).
        self._spooled = [0, 0]
        self.closer = CallCloser(
            self._hang_up,
            stream_sid=stream_sid,
            on_reopened=self.policy.reopen,
            transfer=self._transfer,
        )
        self.agent_captions = AgentCaptions(
            self._caption_sink("assistant"),
            speed=speed,
            played_out=lambda: self.closer.played_out,
        )
        self.callee_captions = CalleeCaptions(self._caption_sink("user"))
        self.worker = self._build_worker()
        self._listen()

    def _listen(self) -> None:
        """The pipeline's events this session acts on."""
        self.recorder.add_event_handler("on_audio_data", self._on_audio)
        self.user_turns.add_event_handler("on_user_turn_started", self._on_user_speaking)
        self.user_turns.add_event_handler("on_user_turn_stopped", self._on_user_turn)
        self.assistant_turns.add_event_handler("on_assistant_turn_stopped", self._on_assistant_turn)
        self.transport.add_event_handler("on_client_connected", self.on_connected)
        self.transport.add_event_handler("on_client_disconnected", self.on_disconnected)

    # Building the pipeline ----------------------------------------------------------------

    def _build_worker(self) -> PipelineWorker:
        """The call's pipeline, run by a worker whose only observer times the replies."""
        timer = TurnTimer(VAD_STOP_SECS, self.hooks.latency)
        worker = PipelineWorker(
            self._build_pipeline(),
            params=PipelineParams(
                audio_in_sample_rate=RATE, audio_out_sample_rate=RATE, enable_metrics=True
            ),
            observers=[timer],
            idle_timeout_secs=None,
            enable_rtvi=False,
            enable_turn_tracking=False,  # unread (TurnTimer times turns), yet fed every frame
        )
        # Pinned Pipecat: the worker's observer, set before the pipeline starts, is handed to
        # every processor; this one queues only the frames the timer reads (a call's worker
        # has no other observer).
        worker._observer = TurnTimerObserver(timer)
        return worker

    def _build_transport(self, websocket: WebSocket, stream_sid: str) -> CarrierTransport:
        background = self.plan.background_audio
        serializer = MarkTwilioSerializer(
            stream_sid, params=MarkTwilioSerializer.InputParams(auto_hang_up=False)
        )
        return CarrierTransport(
            websocket,
            FastAPIWebsocketParams(
                audio_in_enabled=True,
                audio_out_enabled=True,
                add_wav_header=False,
                serializer=serializer,
                audio_out_mixer=AmbienceMixer(background) if background != "none" else None,
            ),
            speed=self.speed,
        )

    def _build_turns(self) -> tuple[LLMUserAggregator, LLMAssistantAggregator]:
        """The callee's turns (Silero VAD, then a short pause) and the agent's, on one context."""
        context = brain_context(self.plan, llm=self.engines.llm is not None)
        vad = InlineSileroVAD(
            sample_rate=RATE,
            params=VADParams(
                start_secs=self.plan.interruption_threshold_ms / 1000, stop_secs=VAD_STOP_SECS
            ),
        )
        pair = LLMContextAggregatorPair(
            context,
            user_params=LLMUserAggregatorParams(
                vad_analyzer=vad,
                user_turn_strategies=UserTurnStrategies(stop=[self._turn_end()]),
            ),
        )
        return pair.user(), pair.assistant()

    def _turn_end(self) -> BaseUserTurnStopStrategy:
        """When the callee's turn is over (voice_agent/turn_end.py): by what was said and how,
        or, with CALLWRIGHT_TURN_END=fixed, after the same pause every time."""
        if turn_end.mode() == "fixed":
            return SpeechTimeoutUserTurnStopStrategy(user_speech_timeout=USER_PAUSE_SECS)
        return TurnEndStrategy(RATE)

    def _build_brain(self) -> list[FrameProcessor]:
        if self.plan.flow is not None:
            return [self._flow_brain(self.plan.flow)]
        if self.engines.llm is not None:
            opener = LLMOpener(self.policy, self.plan, speed=self.speed)
            tools = ToolCalls(self.plan, self.engines.reach, self._act)
            return [
                opener,
                llm_brain(self.engines.llm, self.plan, tools),
                GoodbyeWatch(lambda: opener.heard),
            ]
        return [
            OfflineBrain(
                self.policy,
                voicemail_message=self.plan.voicemail == "message",
                speed=self.speed,
                goodbye_heard=lambda: self.closer.played_out,
            )
        ]

    def _flow_brain(self, graph: FlowGraph) -> FlowBrain:
        """The brain of a call on a flow: the runner with the LLM's chooser, or the offline
        one; its steps reported to the hooks, its tools run like the LLM's."""
        llm = self.engines.llm
        today = self.plan.today or date.today()
        chooser: EdgeChooser = OfflineChooser(today)
        if llm is not None:
            model = ChatModel(llm.base_url, llm.api_key, llm.model, self.plan.temperature)
            chooser = LLMChooser(model, graph, today)
        runner = FlowRunner(
            graph,
            self.plan.variables,
            state=self.plan.flow_state,
            chooser=chooser,
            start_node_id=self.plan.flow_start_node_id,
            clock=self._call_seconds,
        )
        self._flow = FlowBrain(
            runner,
            self.plan,
            self.policy,
            report_step=lambda step: self._write(self.hooks.step(step)),
            run_tool=self._flow_tool,
            speed=self.speed,
            goodbye_heard=lambda: self.closer.played_out,
        )
        return self._flow

    def _call_seconds(self) -> float | None:
        """Seconds into the call (on its clock) since it was answered."""
        if self._connected_at is None:
            return None
        return round((time.monotonic() - self._connected_at) * self.speed, 2)

    async def _flow_tool(
        self, action: ToolAction, arguments: dict[str, Any]
    ) -> tuple[bool, str | None]:
        """A flow's tool node: the call's tool of that name, run as the LLM's tools are (its
        waiting line, its action lines)."""
        spec = next((t for t in self.plan.tools if t.name == action.tool), None)
        if spec is None:
            self._act(
                ActionReport(
                    "tool", action.tool, "failed", f"{action.tool} is not one of the call's tools"
                )
            )
            return False, None
        runner = ToolCalls(self.plan, self.engines.reach, self._act, speak=self._waiting_line)
        answer = await runner.run(cast(Any, None), spec, arguments)
        return answer.status == "succeeded", answer_text(answer.result)

    async def _waiting_line(self, _llm: Any, line: str) -> None:
        await self._say(Reply(line))

    def _build_pipeline(self) -> Pipeline:
        voice = tts.find(self.plan.voice) or tts.default_voice(self.plan.language)
        self.stt = WhisperSTTService(self.engines.transcriber, self.plan.language)
        self.tts = LocalTTSService(voice)
        return Pipeline(
            [
                self.transport.input(),
                self.stt,
                self.callee_captions,
                KeysHeard(self._act),
                self.user_turns,
                *self._build_brain(),
                self.tts,
                self.closer,
                self.transport.output(),
                KeysSent(self._act),
                self.agent_captions,
                self.recorder,
                self.assistant_turns,
            ]
        )

    # The call's events ---------------------------------------------------------------------

    async def on_connected(self, _transport: Any, _client: Any) -> None:
        """The callee answered: record, tell the call flows, arm the time limit, and speak
        first unless the plan waits for the callee's greeting."""
        self._connected_at = time.monotonic()
        await self.recorder.start_recording()
        self._timers.append(asyncio.create_task(self._spool_forever()))
        self._after(self.plan.max_duration_seconds, self._time_up)
        if self.plan.leg == "resume":
            await self._resume()
            return
        await self.hooks.answered()
        if self.plan.precall_dtmf_sequence:
            # Before the agent speaks: its first words go out after the keys' tones.
            await self.worker.queue_frame(KeysFrame(self.plan.precall_dtmf_sequence, "precall"))
        if self.plan.wait_for_greeting:
            self._after(GREETING_WAIT_SECS, self._open_conversation)
        else:
            await self._open_conversation()

    async def on_disconnected(self, _transport: Any, _client: Any) -> None:
        await self.worker.queue_frame(EndFrame())

    async def _on_audio(self, _buffer: Any, audio: bytes, sample_rate: int, _channels: int) -> None:
        self._audio, self._rate = audio, sample_rate

    async def _on_user_speaking(self, _aggregator: Any, _strategy: Any) -> None:
        # Heard as soon as the callee starts (VAD), not when their words are transcribed: a
        # greeting timer that ran out meanwhile must not talk over them.
        self._spoke_first = True

    async def _on_user_turn(self, _aggregator: Any, _strategy: Any, message: Any) -> None:
        self._spoke_first = True
        if message.content and self._answerer is None:
            # Told before the line is kept, so the line can say whose it is.
            voicemail = classify(message.content) is Intent.VOICEMAIL
            self._answerer = "voicemail" if voicemail else "human"
            self._write(self.hooks.answered_by(self._answerer))
        if message.content and opts_out(message.content):
            self._write(self.hooks.opted_out(message.content))
        self.callee_captions.close_turn(message.content or "")

    async def _on_assistant_turn(self, _aggregator: Any, message: Any) -> None:
        if message.interrupted:  # the callee talked over the agent (a "Hello?" on the greeting)
            keep_what_was_said(self.policy, self.assistant_turns.context, message.content or "")
            if self._flow is not None:
                self._flow.interrupted(message.content or "")
        # The agent's line is written by its captions, as heard (cut where the callee cut in).

    # What the session does on its own ------------------------------------------------------

    async def _hang_up(self) -> None:
        if not self._hung_up:
            self._hung_up = True
            await self.hooks.hang_up(self._ending)

    async def _say(self, reply: Reply) -> None:
        """Speak as the brain does (an LLM response), so the turn is recorded like any other."""
        frames: list[Any] = []
        if reply.text:
            frames += [
                LLMFullResponseStartFrame(),
                LLMTextFrame(reply.text),
                LLMFullResponseEndFrame(),
            ]
        if reply.end_call:
            frames.append(FinalReplyFrame())
        await self.worker.queue_frames(frames)

    async def _open_conversation(self) -> None:
        """Speak first (at once, or when the greeting wait runs out), unless the callee began."""
        if not self._spoke_first:
            await self._greet()

    async def _greet(self) -> None:
        if self.policy.greeted:
            return
        self._spoke_first = True
        if self.plan.flow is not None:
            self.policy.greeted = True
            await self.worker.queue_frame(FlowStartFrame())
            return
        if self.engines.llm is not None and not self.plan.first_sentence:
            # The disclosure first, then the model introduces itself (its system message says
            # the line was said).
            self.policy.greeted = True
            if self.plan.disclosure:
                await self._say(self.policy.llm_opening())
            await self.worker.queue_frames([LLMRunFrame()])
        else:
            await self._say(self.policy.opening())  # the policy's, or the call's first sentence

    async def _resume(self) -> None:
        """Back after a transfer that did not reach the person: say so and carry on."""
        if self.plan.flow is not None:
            await self.worker.queue_frame(FlowResumeFrame(back_line(self.plan.transfer_result)))
            return
        said = [text for speaker, text in self.plan.history if speaker == "assistant"]
        await self._say(self.policy.resumed(said, back_line(self.plan.transfer_result)))

    async def _transfer(self, frame: TransferFrame) -> None:
        """The agent's line before a transfer has been heard: ask the carrier (in a task of
        its own, awaited before the call's media ends, as the stream stops meanwhile)."""
        self._writes.append(asyncio.ensure_future(self._hand_over(frame)))

    async def _hand_over(self, frame: TransferFrame) -> None:
        to = frame.department or "a person"
        asked = {"department": frame.department} if frame.department else {}
        # Its "started" line is the calls side's, which knows the number it goes to.
        started = await self.hooks.transfer(
            frame.department, frame.summary, number=frame.number, mode=frame.mode
        )
        if started.ok:
            return  # the carrier stops this stream; the call goes on without the agent
        await self.hooks.action(
            ActionReport(
                "transfer",
                "transfer",
                "failed",
                f"Transfer to {to} failed: {started.reason}",
                asked,
                result={"reason": started.reason},
            )
        )
        await self.closer.reopen()
        self.policy.reopen()
        self.policy.transfer_failed = True
        if self.plan.flow is not None:
            await self.worker.queue_frame(FlowResumeFrame(CANNOT_TRANSFER))
            return
        await self._say(Reply(CANNOT_TRANSFER))

    async def _time_up(self) -> None:
        if not self.policy.ended:
            self._ending = "time-limit"
            await self._say(self.policy.time_up())

    async def _spool_forever(self) -> None:
        """Hand what each track recorded since the last time to the hooks, every second, so a
        process that dies mid-call leaves the recording so far (the recorder's own buffers
        only grow until the call ends; the finished recording still comes from them whole)."""
        while True:
            await asyncio.sleep(SPOOL_EVERY_SECONDS)
            await self._spool()

    async def _spool(self) -> None:
        # Pipecat's recorder keeps the callee's and the agent's tracks apart until it merges
        # them at the end (pinned Pipecat: its buffers are read, never written).
        if not self.plan.record:
            return
        tracks = (self.recorder._user_audio_buffer, self.recorder._bot_audio_buffer)
        new = [bytes(track[done:]) for track, done in zip(tracks, self._spooled, strict=True)]
        if any(new):
            self._spooled = [len(track) for track in tracks]
            await self.hooks.recorded(new[0], new[1], RATE)

    def _after(self, seconds: float, action: Callable[[], Awaitable[None]]) -> None:
        """Run action after this many seconds of call time (cancelled when the call is over)."""

        async def later() -> None:
            await asyncio.sleep(seconds / self.speed)
            await action()

        self._timers.append(asyncio.create_task(later()))

    def _act(self, report: ActionReport) -> None:
        """An action the pipeline saw (keys pressed or heard): its line, written like the
        transcript's."""
        self._write(self.hooks.action(report))

    def _caption_sink(self, speaker: Literal["assistant", "user"]) -> CaptionSink:
        """Where a side's captions go: words in flight are shown, a final line is written."""

        def sink(key: str, text: str, started: float, final: bool) -> None:
            if final:
                self._write(self.hooks.line(speaker, text, key=key, at=started))
            else:
                self._write(self.hooks.caption(speaker, text, key=key, at=started))

        return sink

    def _write(self, report: Awaitable[None]) -> None:
        """Captions and lines are reported by tasks of our own (the pipeline never waits on a
        database write), in order (the hooks serialise them), and all of them land before the
        call is finished: a goodbye that ends the pipeline is still written, whatever Pipecat
        does with its handler tasks at shutdown."""
        self._writes.append(asyncio.ensure_future(report))

    # Running and finishing -----------------------------------------------------------------

    async def run(self) -> None:
        """Run the pipeline until the call ends, then finish, whatever ended it."""
        runner = WorkerRunner(handle_sigint=False)
        await runner.add_workers(self.worker)
        try:
            await runner.run()
        finally:
            await self.finish()

    async def finish(self) -> None:
        """Stop the timers, wait for every transcript line, and hand over the recording."""
        for task in self._timers:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        # Spooled to the end: after a transfer the call's recording is its streams' spools.
        await self._spool()
        for outcome in await asyncio.gather(*self._writes, return_exceptions=True):
            if isinstance(outcome, BaseException):
                log.error("a transcript line was not saved", exc_info=outcome)
        # What the speculative transcription cost, and what the speech cache saved
        # (benchmarks/concurrent_calls.py reads it).
        log.info(
            "speech-to-text: %d transcriptions, guesses %d used, %d dropped; "
            "text-to-speech: %d sentences, %d from the cache; "
            "the process's transcription runs by batch size %s",
            self.stt.transcriptions,
            self.stt.guesses_used,
            self.stt.guesses_dropped,
            self.tts.sentences,
            self.tts.from_cache,
            self.stt.transcription_queue.batch_counts(),
        )
        await self.hooks.finished(self.recording() if self.plan.record else None)

    def recording(self) -> Recording | None:
        """The call's stereo recording: the agent left, the callee right (None: no audio)."""
        if not self._audio:
            return None
        frames = np.frombuffer(self._audio, dtype=np.int16).reshape(-1, 2)
        # Pipecat puts the user (callee) on the left; we keep the agent left, the callee right.
        stereo = frames[:, ::-1].reshape(-1).copy()
        return Recording(stereo=stereo, rate=self._rate, seconds=len(frames) / self._rate)
