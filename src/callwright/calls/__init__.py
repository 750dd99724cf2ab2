"""Calls: placing them, following them, their transcripts, events and recordings."""
