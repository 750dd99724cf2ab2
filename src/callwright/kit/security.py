"""Password hashing, random secrets, token hashing, signed URLs and sealed (encrypted) secrets."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from urllib.parse import urlencode

import anyio.to_thread
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from cryptography.fernet import Fernet, InvalidToken

# argon2id with OWASP's recommended floor (19 MiB, t=2, p=1).
_hasher = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
# A valid hash of a random password: verifying against it costs the same as a real check,
# so an unknown e-mail takes as long as a wrong password.
_DUMMY_HASH = _hasher.hash(secrets.token_urlsafe(16))


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _DUMMY_HASH, password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False


async def hash_password_async(password: str) -> str:
    """argon2 costs ~20 ms of CPU; run it off the event loop (argon2-cffi releases the GIL)."""
    return await anyio.to_thread.run_sync(hash_password, password)


async def verify_password_async(password_hash: str | None, password: str) -> bool:
    return await anyio.to_thread.run_sync(verify_password, password_hash, password)


def needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)


def random_token(nbytes: int = 32) -> str:
    """URL-safe random secret (256 bits by default)."""
    return secrets.token_urlsafe(nbytes)


def sha256_hex(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def sign(secret_key: str, purpose: str, message: str) -> str:
    """HMAC-SHA256 of `message`, separated by `purpose` so one signature never serves another use."""
    key = hashlib.sha256(f"{purpose}:{secret_key}".encode()).digest()
    return hmac.new(key, message.encode(), hashlib.sha256).hexdigest()


def constant_time_equals(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def signed_url(secret_key: str, base: str, params: dict[str, str]) -> str:
    """`base?params&signature=...`, signed over the path and the other parameters."""
    query = urlencode(sorted(params.items()))
    signature = sign(secret_key, "url", f"{base}?{query}")
    return f"{base}?{query}&signature={signature}"


def valid_url_signature(secret_key: str, base: str, params: dict[str, str], signature: str) -> bool:
    query = urlencode(sorted(params.items()))
    return constant_time_equals(sign(secret_key, "url", f"{base}?{query}"), signature)


def _fernet(secret_key: str) -> Fernet:
    key = hashlib.sha256(f"seal:{secret_key}".encode()).digest()
    return Fernet(base64.urlsafe_b64encode(key))


def seal(secret_key: str, text: str) -> str:
    """`text` encrypted (and authenticated) with a key derived from `secret_key`: what a
    secret the server must use again (a tool's header value) is kept as."""
    return _fernet(secret_key).encrypt(text.encode()).decode()


def unseal(secret_key: str, sealed: str) -> str | None:
    """What `seal` sealed; None when it was sealed with another key or was tampered with."""
    try:
        return _fernet(secret_key).decrypt(sealed.encode()).decode()
    except (InvalidToken, ValueError):
        return None
