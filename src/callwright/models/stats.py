"""The analytics rollup: calls per UTC hour, status and outcome, so the admin charts read a few thousand
rows instead of every call (see callwright.admin.analytics)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from callwright.kit.db import Base, UTCDateTime

#: Upper bounds (seconds) of the duration buckets 0-1, 1-2, 2-5, 5-10, 10-20, 20-30 and 30-60
#: minutes; longer calls fall in the last one (the displayed duration is capped at an hour).
DURATION_BUCKETS = (60, 120, 300, 600, 1200, 1800, 3600)
BUCKET_LABELS = ("0-1", "1-2", "2-5", "5-10", "10-20", "20-30", "30-60")


class CallStatsHourly(Base):
    """Finished calls created in one UTC hour with one status and outcome. Rows are written once, for hours
    whose calls have all been finalised, and never change afterwards."""

    __tablename__ = "call_stats_hourly"

    hour: Mapped[datetime] = mapped_column(UTCDateTime(), primary_key=True)
    status: Mapped[str] = mapped_column(String(16), primary_key=True)
    #: How the calls ended (telephony.state.CallOutcome; "" for a call without one).
    outcome: Mapped[str] = mapped_column(String(32), primary_key=True)
    calls: Mapped[int] = mapped_column(Integer)
    #: Calls with a recording.
    recorded: Mapped[int] = mapped_column(Integer)
    #: Calls with a positive duration, and their seconds (each capped at an hour).
    connected: Mapped[int] = mapped_column(Integer)
    duration_seconds: Mapped[int] = mapped_column(Integer)
    cost_cents: Mapped[int] = mapped_column(Integer)
    #: Connected calls per duration bucket (DURATION_BUCKETS).
    d0: Mapped[int] = mapped_column(Integer)
    d1: Mapped[int] = mapped_column(Integer)
    d2: Mapped[int] = mapped_column(Integer)
    d3: Mapped[int] = mapped_column(Integer)
    d4: Mapped[int] = mapped_column(Integer)
    d5: Mapped[int] = mapped_column(Integer)
    d6: Mapped[int] = mapped_column(Integer)
