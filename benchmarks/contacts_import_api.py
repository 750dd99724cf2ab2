"""A campaign's contacts import through the API: from the HTTP upload to the validation report.

Run: .venv/bin/python benchmarks/contacts_import_api.py [rows] [uploads]

`benchmarks/contacts_import.py` times the reading alone (`campaigns.contacts.read_contacts`, in
process, nothing stored). This one times what a user waits for: `callwright serve` in its own
process on a fresh, migrated SQLite database (or CALLWRIGHT_DATABASE_URL), a signed-in user with
an agent that needs `{{name}}` and `{{appointment}}`, and `POST /api/v1/campaigns/{id}/contacts`
with the same kind of file (`rows` contacts, default 60,000; one bad row in a thousand) until
the report is read: the multipart upload, the reading, the do-not-call questions, the inserts
and the commit. Each of `uploads` uploads (default 1) goes to a new draft, so none replaces
contacts. Prints the seconds, rows/s and the server's CPU seconds for each.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time

import httpx
from api_load import bench_settings, cpu_seconds, seed_users, served
from contacts_import import write_file

from callwright.auth import tokens
from callwright.config import Settings
from callwright.kit.db import Database

PROMPT = "You are Sam from Acme Dental, confirming {{name}}'s appointment at {{appointment}}."


async def _token(settings: Settings) -> str:
    db = Database(settings.database_url)
    try:
        (user_id,) = await seed_users(db, 1, lambda _: "Importer", lambda _: "import@example.com")
        async with db.sessionmaker() as session:
            token = await tokens.issue(session, user_id, 600, "benchmark")
            await session.commit()
        return token
    finally:
        await db.dispose()


async def _draft(client: httpx.AsyncClient, agent_id: str, n: int) -> str:
    response = await client.post("campaigns", json={"name": f"Import {n}", "agent_id": agent_id})
    response.raise_for_status()
    return str(response.json()["data"]["id"])


async def main(rows: int, uploads: int, settings: Settings, env: dict[str, str]) -> None:
    token = await _token(settings)
    path = settings.data_dir / "contacts.csv"
    write_file(path, rows)
    body = path.read_bytes()
    print(f"file: {rows} rows, {len(body) / 2**20:.2f} MiB")
    async with (
        served(settings, env) as server,
        httpx.AsyncClient(
            base_url=f"{server.url}/api/v1/",
            headers={"Authorization": f"Bearer {token}"},
            timeout=600,
        ) as client,
    ):
        agent = await client.post(
            "agents", json={"name": "Importer", "prompt": PROMPT, "voice": "joe"}
        )
        agent.raise_for_status()
        agent_id = str(agent.json()["data"]["id"])
        for n in range(1, uploads + 1):
            campaign_id = await _draft(client, agent_id, n)
            cpu_before = cpu_seconds(server.pid)
            started = time.perf_counter()
            response = await client.post(
                f"campaigns/{campaign_id}/contacts",
                files={"file": ("contacts.csv", body, "text/csv")},
            )
            elapsed = time.perf_counter() - started
            cpu = cpu_seconds(server.pid) - cpu_before
            response.raise_for_status()
            report = response.json()["data"]
            answered = report["accepted"] + report["refused_count"]
            assert answered == rows, f"{answered} of {rows} rows answered"
            print(
                f"upload {n}: {elapsed:.2f} s = {rows / elapsed:,.0f} rows/s, "
                f"server CPU {cpu:.2f} s ({report['accepted']} accepted, "
                f"{report['refused_count']} refused)"
            )


if __name__ == "__main__":
    rows_n = int(sys.argv[1]) if len(sys.argv) > 1 else 60_000
    uploads_n = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(main(rows_n, uploads_n, *bench_settings(tmp)))
