"""The result of :func:`geomrender.score`: report.json's content, as data and tables."""

from __future__ import annotations

import json
from typing import Any

#: The tables :meth:`Report.to_pandas` makes, and where each comes from.
TABLES = {
    "rows": "accuracy per model, axis and value (report.json's rows)",
    "models": "per model: predictions, accuracy, missing",
    "consistency": "per model and axis: bases answered alike on every variant",
    "items": "per model and image: the extracted answer and verdict (items.jsonl)",
    "errors": "rejected input lines",
    "cannot_be_inferred": "relation items: precision/recall/F1 of 'Cannot be inferred'",
}


class Report:
    """A scoring report: ``.data`` is report.json's object (schema:
    ``schemas/report.schema.json``), ``.items`` the per-image verdicts."""

    def __init__(self, report_json: str, items_json: str) -> None:
        self.data: dict = json.loads(report_json)
        self.items: list = json.loads(items_json)

    @property
    def rows(self) -> list:
        """Accuracy per model, axis and value, with Wilson intervals and flips."""
        return self.data["rows"]

    @property
    def counts(self) -> dict:
        """Items, predictions, missing, unknown, duplicate and malformed counts."""
        return self.data["counts"]

    @property
    def errors(self) -> list:
        """Every rejected input line (file, line, reason)."""
        return self.data["errors"]

    def to_dict(self) -> dict:
        """report.json's object."""
        return self.data

    def to_json(self) -> str:
        """report.json's text."""
        return json.dumps(self.data, indent=2)

    def to_pandas(self, table: str = "rows") -> Any:
        """One table as a ``pandas.DataFrame``: ``rows`` (default), ``models``,
        ``consistency``, ``items``, ``errors`` or ``cannot_be_inferred``."""
        import pandas as pd

        if table not in TABLES:
            raise ValueError(f"unknown table {table!r}: expected one of {', '.join(TABLES)}")
        records = self.items if table == "items" else self.data.get(table, [])
        return pd.json_normalize(records) if records else pd.DataFrame()

    def __repr__(self) -> str:
        c = self.counts
        return (
            f"Report(models={len(self.data['models'])}, items={c['items']}, "
            f"predictions={c['predictions']}, rows={len(self.rows)}, errors={len(self.errors)})"
        )
