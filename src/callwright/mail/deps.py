from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from callwright.mail.service import Mailer


def _mailer(request: Request) -> Mailer:
    mailer: Mailer = request.app.state.mailer
    return mailer


MailerDep = Annotated[Mailer, Depends(_mailer)]
