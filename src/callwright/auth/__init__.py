"""Accounts and sign-in: tokens, CSRF, registration, verification, password reset, Google."""
