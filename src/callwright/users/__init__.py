"""Users: the stored accounts (lookups, e-mail uniqueness) and their schemas."""
