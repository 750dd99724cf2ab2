"""The signed-in user's own account over HTTP: the profile and the password change (on top of
`auth`, which signs people in, and `users`, which stores them)."""
