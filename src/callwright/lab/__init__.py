"""The agent lab: scenarios run as sandbox calls before an agent dials anyone (docs/lab.md)."""
