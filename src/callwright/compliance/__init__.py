"""Calling lawfully by default: do-not-call lists (and, as issue 18 goes on, calling hours and
the per-number frequency cap). docs/compliance.md says what each rule is for."""
