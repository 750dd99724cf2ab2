"""Carrier implementations: twilio (also used by the sandbox, which speaks Twilio's protocol) and bland."""
