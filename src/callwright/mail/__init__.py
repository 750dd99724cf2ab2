"""Outgoing e-mail: every message is kept in the outbox; SMTP delivers it when configured."""
