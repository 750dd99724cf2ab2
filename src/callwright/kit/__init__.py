"""Domain-free plumbing: database, errors, security, rate limits, time."""
