"""Users: lookups and the signed-in user's profile."""
