"""How the socket server learns who a socket speaks for: the handshake's token, and the
periodic re-check of every live socket's token and role (realtime.server.Realtime)."""

from __future__ import annotations

from collections.abc import Collection

from callwright.auth import tokens
from callwright.kit.db import Database
from callwright.realtime.server import Identity


class SocketAuth:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def authenticate(self, token: str) -> Identity | None:
        async with self.db.sessionmaker() as session:
            found = await tokens.resolve(session, token, self.db.write_behind)
            if found is None:
                return None
            return (await tokens.identities(session, [found[0]])).get(found[0])

    async def revalidate(self, token_ids: Collection[int]) -> dict[int, Identity]:
        async with self.db.sessionmaker() as session:
            return await tokens.identities(session, token_ids)
