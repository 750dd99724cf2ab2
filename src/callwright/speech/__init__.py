"""Offline speech engines with no Pipecat dependency: audio codecs, text-to-speech voices,
Whisper transcription and a simple VAD. voice_agent wraps them for Pipecat; the sandbox callee
and the voices catalogue use them directly."""
