from __future__ import annotations

import math

from pydantic import BaseModel


class Pagination(BaseModel):
    current_page: int
    last_page: int
    per_page: int
    total: int

    @classmethod
    def of(cls, *, page: int, per_page: int, total: int) -> Pagination:
        return cls(
            current_page=page,
            last_page=max(1, math.ceil(total / per_page)),
            per_page=per_page,
            total=total,
        )
