"""What the running system is made of and whether each part answers (docs/system.md)."""
