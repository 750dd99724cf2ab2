"""Saved agents: a call's settings kept under a name, with `{{variable}}` placeholders."""
