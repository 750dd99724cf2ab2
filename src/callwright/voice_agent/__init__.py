"""The voice agent: the only package that imports Pipecat (except contract.py, which is plain)."""
