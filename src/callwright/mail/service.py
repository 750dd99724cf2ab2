"""Compose, store and deliver e-mails."""

from __future__ import annotations

import logging
from email.message import EmailMessage as MimeMessage
from html import escape

import aiosmtplib
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.config import Settings
from callwright.kit.db import Database, on_commit
from callwright.kit.jobs import JobQueue
from callwright.kit.time import utcnow
from callwright.mail import repository
from callwright.models import EmailMessage

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
DELIVER_JOB = "mail.deliver"


class Mailer:
    """Bound to the app: knows the settings, the database and where to run delivery."""

    def __init__(self, settings: Settings, db: Database, jobs: JobQueue) -> None:
        self.settings = settings
        self.db = db
        self.jobs = jobs
        jobs.register(DELIVER_JOB, self.deliver)

    async def send_link_email(
        self,
        session: AsyncSession,
        *,
        to: str,
        kind: str,
        subject: str,
        greeting: str,
        intro: str,
        action: str,
        link: str,
        outro: str,
    ) -> EmailMessage:
        """Store a message with one call-to-action link; deliver it after the commit."""
        text = f"{greeting}\n\n{intro}\n\n{action}: {link}\n\n{outro}\n\n- Callwright\n"
        html = (
            f"<p>{escape(greeting)}</p><p>{escape(intro)}</p>"
            f'<p><a href="{escape(link, quote=True)}" '
            'style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;'
            f'border-radius:6px;text-decoration:none">{escape(action)}</a></p>'
            f"<p>If the button does not work, open this address:<br>{escape(link)}</p>"
            f"<p>{escape(outro)}</p><p>- Callwright</p>"
        )
        message = EmailMessage(
            to_address=to.lower(),
            subject=subject,
            body_text=text,
            body_html=html,
            kind=kind,
            link=link,
            status="pending" if self.settings.smtp_enabled else "stored",
        )
        await repository.add(session, message)
        if self.settings.smtp_enabled:
            message_id = message.id

            async def deliver_later() -> None:
                await self.jobs.send(DELIVER_JOB, message_id)

            on_commit(session, deliver_later)
        else:
            log.info(
                "e-mail %s to %s kept in the outbox (no SMTP configured)", kind, message.to_address
            )
        return message

    async def deliver(self, message_id: int) -> None:
        async for session in self.db.session():
            message = await repository.get(session, message_id)
            if message is None or message.status != "pending":
                return
            message.attempts += 1
            try:
                await aiosmtplib.send(
                    self._mime(message),
                    hostname=self.settings.smtp_host,
                    port=self.settings.smtp_port,
                    username=self.settings.smtp_username or None,
                    password=self.settings.smtp_password or None,
                    start_tls=self.settings.smtp_starttls,
                    timeout=30,
                )
            except (aiosmtplib.SMTPException, OSError) as exc:
                message.error = f"{type(exc).__name__}: {exc}"
                if message.attempts >= MAX_ATTEMPTS:
                    message.status = "failed"
                log.warning("e-mail %s delivery failed: %s", message_id, message.error)
            else:
                message.status = "sent"
                message.sent_at = utcnow()
                message.error = None

    async def deliver_pending(self) -> None:
        async for session in self.db.session():
            ids = await repository.pending_ids(session)
        for message_id in ids:
            await self.deliver(message_id)

    def _mime(self, message: EmailMessage) -> MimeMessage:
        mime = MimeMessage()
        mime["From"] = self.settings.mail_from
        mime["To"] = message.to_address
        mime["Subject"] = message.subject
        mime.set_content(message.body_text)
        mime.add_alternative(message.body_html, subtype="html")
        return mime
