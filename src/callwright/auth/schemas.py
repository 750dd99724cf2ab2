from __future__ import annotations

from pydantic import BaseModel

from callwright.kit.envelope import Envelope
from callwright.kit.validation import Email, Name, NewPassword
from callwright.users.schemas import UserOut


class Message(Envelope):
    message: str


class RegisterIn(BaseModel):
    name: Name
    email: Email
    password: NewPassword


class RegisterOut(Message):
    user: UserOut


class EmailIn(BaseModel):
    email: Email


class LoginIn(BaseModel):
    email: Email
    # Any length is accepted at login (older accounts may predate the policy); the hash decides.
    password: str


class LoginOut(Message):
    token: str
    user: UserOut


class ResetPasswordIn(BaseModel):
    token: str
    email: Email
    password: NewPassword
    password_confirmation: str | None = None


class GoogleRedirectOut(Envelope):
    redirect_url: str
