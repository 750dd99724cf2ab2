"""The voice catalogue and its samples."""
