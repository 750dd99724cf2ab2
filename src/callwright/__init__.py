"""Callwright: AI outbound calling."""

__version__ = "0.1.0"
