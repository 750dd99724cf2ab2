"""The app's mailer as a request dependency."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from callwright.kit.deps import from_app
from callwright.mail.service import Mailer

MailerDep = Annotated[Mailer, Depends(from_app("mailer"))]
