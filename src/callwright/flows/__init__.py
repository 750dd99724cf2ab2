"""Conversation flows: storage, the web API, starters, import and export (docs/flows.md)."""
