"""One call's voice pipeline, from the carrier's media websocket to the recording.

transport.input -> STT -> user turns (Silero VAD) -> brain (offline policy or LLM) -> TTS
    -> closer -> transport.output (+ ambience) -> stereo recorder -> assistant turns
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from fastapi import WebSocket
from pipecat.adapters.llm.schemas.function_schema import FunctionSchema
from pipecat.adapters.llm.schemas.tools_schema import ToolsSchema
from pipecat.audio.vad.silero import SileroVADAnalyzer
from pipecat.audio.vad.vad_analyzer import VADParams
from pipecat.frames.frames import (
    EndFrame,
    FunctionCallResultProperties,
    LLMFullResponseEndFrame,
    LLMFullResponseStartFrame,
    LLMRunFrame,
    LLMTextFrame,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineParams, PipelineWorker
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import (
    LLMContextAggregatorPair,
    LLMUserAggregatorParams,
)
from pipecat.processors.audio.audio_buffer_processor import AudioBufferProcessor
from pipecat.processors.frame_processor import FrameProcessor
from pipecat.services.openai.llm import OpenAILLMService
from pipecat.transports.websocket.fastapi import FastAPIWebsocketParams
from pipecat.turns.user_stop.speech_timeout_user_turn_stop_strategy import (
    SpeechTimeoutUserTurnStopStrategy,
)
from pipecat.turns.user_turn_strategies import UserTurnStrategies
from pipecat.workers.runner import WorkerRunner

from callwright.speech import tts
from callwright.speech.stt import Transcriber
from callwright.voice_agent.contract import CallHooks, CallPlan, Recording
from callwright.voice_agent.logs import quiet_pipecat
from callwright.voice_agent.policy import OfflinePolicy, Reply
from callwright.voice_agent.processors import (
    AmbienceMixer,
    CallCloser,
    CarrierTransport,
    FinalReplyFrame,
    MarkTwilioSerializer,
    OfflineBrain,
    TurnTimer,
)
from callwright.voice_agent.services import LocalTTSService, WhisperSTTService

log = logging.getLogger(__name__)
# CALLWRIGHT_PIPECAT_LOG=DEBUG shows every frame decision (turns, interruptions, timings).
quiet_pipecat(os.environ.get("CALLWRIGHT_PIPECAT_LOG", "WARNING"))
RATE = 8000
#: Silence that ends a stretch of speech (Whisper has usually started on it already: the
#: speculative transcription in WhisperSTTService; see docs/performance.md).
VAD_STOP_SECS = 0.3
#: After the VAD stop, a pause shorter than this more keeps the callee's turn open: the agent
#: answers after at least 0.3 + 0.4 s of silence, or when the transcript is ready if later.
USER_PAUSE_SECS = 0.4
#: With wait_for_greeting, the agent speaks first after this much silence from the callee.
GREETING_WAIT_SECS = 4.0


@dataclass(frozen=True)
class LLMConfig:
    """An OpenAI-compatible chat-completions endpoint."""

    base_url: str
    api_key: str
    model: str


@dataclass
class Engines:
    """Models shared by every call in this process, and the LLM endpoint (None: offline policy)."""

    transcriber: Transcriber
    llm: LLMConfig | None = None


PHONE_STYLE = (
    "You are speaking on a phone call, so keep every reply to one or two short sentences, with no "
    "lists, markdown or emoji. Speak first with a short greeting that says who you are and why you "
    "are calling. If you reach voicemail, leave a short message. When the conversation is over, say "
    "goodbye and then call the end_call function."
)
END_CALL = FunctionSchema(
    name="end_call",
    description="Hang up the call. Call it right after you have said goodbye.",
    properties={},
    required=[],
)


async def run_call(
    websocket: WebSocket,
    plan: CallPlan,
    hooks: CallHooks,
    engines: Engines,
    *,
    stream_sid: str,
    speed: float = 1.0,
) -> None:
    voice = tts.find(plan.voice) or tts.default_voice()
    serializer = MarkTwilioSerializer(
        stream_sid, params=MarkTwilioSerializer.InputParams(auto_hang_up=False)
    )
    mixer = AmbienceMixer(plan.background_audio) if plan.background_audio != "none" else None
    transport = CarrierTransport(
        websocket,
        FastAPIWebsocketParams(
            audio_in_enabled=True,
            audio_out_enabled=True,
            add_wav_header=False,
            serializer=serializer,
            audio_out_mixer=mixer,
        ),
        speed=speed,
    )
    policy = OfflinePolicy(plan.prompt)
    if engines.llm is not None:
        context = LLMContext(
            messages=[{"role": "system", "content": f"{plan.prompt}\n\n{PHONE_STYLE}"}],
            tools=ToolsSchema(standard_tools=[END_CALL]),
        )
    else:
        context = LLMContext(messages=[{"role": "system", "content": plan.prompt}])
    vad = SileroVADAnalyzer(
        sample_rate=RATE,
        params=VADParams(start_secs=plan.interruption_threshold_ms / 1000, stop_secs=VAD_STOP_SECS),
    )
    user_turns, assistant_turns = LLMContextAggregatorPair(
        context,
        user_params=LLMUserAggregatorParams(
            vad_analyzer=vad,
            user_turn_strategies=UserTurnStrategies(
                stop=[SpeechTimeoutUserTurnStopStrategy(user_speech_timeout=USER_PAUSE_SECS)]
            ),
        ),
    )
    brain: FrameProcessor
    if engines.llm is not None:
        brain = _llm_brain(engines.llm, plan)
    else:
        brain = OfflineBrain(policy, voicemail_message=plan.voicemail == "message", speed=speed)
    hung_up = asyncio.Event()

    async def hang_up() -> None:
        if not hung_up.is_set():
            hung_up.set()
            await hooks.hang_up()

    closer = CallCloser(hang_up, stream_sid=stream_sid, on_reopened=policy.reopen)
    recorder = AudioBufferProcessor(num_channels=2)
    pipeline = Pipeline(
        [
            transport.input(),
            WhisperSTTService(engines.transcriber),
            user_turns,
            brain,
            LocalTTSService(voice),
            closer,
            transport.output(),
            recorder,
            assistant_turns,
        ]
    )
    timer = TurnTimer(VAD_STOP_SECS, hooks.latency)
    worker = PipelineWorker(
        pipeline,
        params=PipelineParams(
            audio_in_sample_rate=RATE, audio_out_sample_rate=RATE, enable_metrics=True
        ),
        observers=[timer],
        idle_timeout_secs=None,
        enable_rtvi=False,
    )
    recording: dict[str, Any] = {}
    spoke_first = asyncio.Event()
    timers: list[asyncio.Task[None]] = []

    async def say(reply: Reply) -> None:
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
        await worker.queue_frames(frames)

    async def open_conversation() -> None:
        if spoke_first.is_set() or policy.greeted:
            return
        spoke_first.set()
        if engines.llm is not None:
            policy.greeted = True
            await worker.queue_frames([LLMRunFrame()])  # the model greets, from its prompt
        else:
            await say(policy.opening())

    async def after(seconds: float, action: Any) -> None:
        await asyncio.sleep(seconds / speed)
        await action()

    async def time_up() -> None:
        if not policy.ended:
            await say(policy.time_up())

    @recorder.event_handler("on_audio_data")
    async def on_audio(_buffer: Any, audio: bytes, sample_rate: int, channels: int) -> None:
        recording["audio"], recording["rate"] = audio, sample_rate

    writes: list[asyncio.Task[None]] = []

    def write_line(speaker: Literal["assistant", "user"], text: str) -> None:
        """Transcript lines are written by tasks of our own, in order (hooks.line serialises
        them), and all of them land before the call is finished: a goodbye that ends the
        pipeline is still written, whatever Pipecat does with its handler tasks at shutdown."""
        writes.append(asyncio.create_task(hooks.line(speaker, text)))

    @user_turns.event_handler("on_user_turn_stopped")
    async def on_user_turn(_aggregator: Any, _strategy: Any, message: Any) -> None:
        spoke_first.set()
        if message.content:
            write_line("user", message.content)

    @assistant_turns.event_handler("on_assistant_turn_stopped")
    async def on_assistant_turn(_aggregator: Any, message: Any) -> None:
        if message.interrupted and policy.greeted and policy.turns == 0:
            # The callee talked over the greeting (a "Hello?"): greet again on their turn.
            policy.reset_greeting()
        if message.content:
            write_line("assistant", message.content)

    @transport.event_handler("on_client_connected")
    async def on_connected(_transport: Any, _client: Any) -> None:
        await recorder.start_recording()
        await hooks.answered()
        timers.append(asyncio.create_task(after(plan.max_duration_seconds, time_up)))
        if plan.wait_for_greeting:
            timers.append(asyncio.create_task(after(GREETING_WAIT_SECS, open_conversation)))
        else:
            await open_conversation()

    @transport.event_handler("on_client_disconnected")
    async def on_disconnected(_transport: Any, _client: Any) -> None:
        await worker.queue_frame(EndFrame())

    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    try:
        await runner.run()
    finally:
        for task in timers:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for outcome in await asyncio.gather(*writes, return_exceptions=True):
            if isinstance(outcome, BaseException):
                log.error("a transcript line was not saved", exc_info=outcome)
        await hooks.finished(_recording(recording))


def _llm_brain(config: LLMConfig, plan: CallPlan) -> FrameProcessor:
    llm = OpenAILLMService(
        api_key=config.api_key or "not-needed",
        base_url=config.base_url,
        settings=OpenAILLMService.Settings(model=config.model, temperature=plan.temperature),
    )

    async def end_call(params: Any) -> None:
        await params.result_callback(
            {"status": "hanging up"}, properties=FunctionCallResultProperties(run_llm=False)
        )
        await llm.push_frame(FinalReplyFrame())

    llm.register_function("end_call", end_call)
    return llm


def _recording(recording: dict[str, Any]) -> Recording | None:
    audio = recording.get("audio")
    if not audio:
        return None
    rate = int(recording["rate"])
    frames = np.frombuffer(audio, dtype=np.int16).reshape(-1, 2)
    # Pipecat puts the user (callee) on the left; we keep the agent left, the callee right.
    stereo = frames[:, ::-1].reshape(-1).copy()
    return Recording(stereo=stereo, rate=rate, seconds=len(frames) / rate)
