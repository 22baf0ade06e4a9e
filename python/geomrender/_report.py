"""The result of :func:`geomrender.score`: report.json's content, as data and tables.

Every table spells ``axis`` and ``value`` as report.json does: ``value`` is always
text (``"8"``, ``"0.25"``, ``"serif"``, ``"base"`` for base images, ``"8+0.25"`` for
a grid cell), in ``items`` as in ``rows``, the breakdowns and
``cannot_be_inferred``, so ``items.merge(rows, on=["model", "axis", "value"])``
finds every item's row. The typed values are in ``items``' ``variant.*`` columns.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from ._errors import OptionError

#: The breakdowns report.json has: by depth and question type, and, for GeomRel
#: relation items, by relation, domain, subset and mode (absent without them).
BREAKDOWNS = ("depth", "question_type", "relation", "domain", "subset", "mode")

#: The tables :meth:`Report.to_pandas` makes, and where each comes from.
TABLES = {
    "rows": "accuracy per model, axis and value (report.json's rows)",
    "models": "per model: predictions, accuracy, missing, the extraction rules that decided",
    "consistency": "per model and axis: bases answered alike on every variant",
    "items": "per model and image: the extracted answer and verdict (items.jsonl), with "
    "task and a relation item's relation, domain, subset and mode",
    "breakdowns": "accuracy per model, axis, value and group, by= one of "
    + ", ".join(BREAKDOWNS)
    + " (None: all of them, with a `by` column)",
    "cannot_be_inferred": "relation items: precision/recall/F1 of 'Cannot be inferred'",
    "baselines": "the blind (image-free) baselines' rows, model 'blind:<method>'",
    "not_drawn": "the run's variants not drawn, per value and reason",
    "errors": "rejected input lines",
    # A breakdown by its own name: to_pandas("relation") == to_pandas("breakdowns", by="relation").
    **{name: f"the {name} breakdown (= breakdowns, by={name!r})" for name in BREAKDOWNS},
}


class Report:
    """A scoring report: ``.data`` is report.json's object (schema:
    ``schemas/report.schema.json``), ``.items`` the per-image verdicts
    (``items.jsonl``'s rows, schema ``schemas/score-items.schema.json``)."""

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

    def records(self, table: str = "rows", by: Optional[str] = None) -> list:
        """The rows of one table (see :meth:`to_pandas`) as a list of dicts."""
        if table not in TABLES:
            raise OptionError(f"invalid value {table!r} for table: expected one of {', '.join(TABLES)}")
        if table in BREAKDOWNS:
            if by is not None and by != table:
                raise OptionError(f"table {table!r} is the {table} breakdown: by={by!r} does not apply")
            table, by = "breakdowns", table
        elif by is not None and table != "breakdowns":
            raise OptionError(f"by={by!r} applies to table 'breakdowns' only, not {table!r}")
        if table == "items":
            return self.items
        if table == "breakdowns":
            found = self.data.get("breakdowns", {})
            if by is not None:
                if by not in BREAKDOWNS:
                    raise OptionError(f"invalid value {by!r} for by: expected one of {', '.join(BREAKDOWNS)}")
                return found.get(by, [])
            return [{"by": name, **r} for name in BREAKDOWNS for r in found.get(name, [])]
        if table == "baselines":
            methods = self.data.get("baselines", {}).get("methods", [])
            return [r for m in methods for r in m["rows"]]
        return self.data.get(table, [])

    def to_pandas(self, table: str = "rows", by: Optional[str] = None) -> Any:
        """One table as a ``pandas.DataFrame``: ``rows`` (default), ``models``,
        ``consistency``, ``items``, ``breakdowns`` (``by="depth"``,
        ``"question_type"``, ``"relation"``, ``"domain"``, ``"subset"`` or
        ``"mode"``; ``None``: all, with a ``by`` column), ``cannot_be_inferred``,
        ``baselines``, ``not_drawn``, ``errors``; a breakdown's name alone
        (``"relation"``) is that breakdown. ``value`` is text in every table, so
        ``items`` joins ``rows`` on ``["model", "axis", "value"]`` and a
        breakdown on those and its ``group`` (``items``' column of the same name:
        ``relation``, ``domain``, ``subset``, ``mode``). A table the report does
        not have (a relation breakdown without relation items) is empty.

        Raises :class:`OptionError` for an unknown table or ``by``."""
        import pandas as pd

        records = self.records(table, by)
        return pd.json_normalize(records) if records else pd.DataFrame()

    def __repr__(self) -> str:
        c = self.counts
        return (
            f"Report(models={len(self.data['models'])}, items={c['items']}, "
            f"predictions={c['predictions']}, rows={len(self.rows)}, errors={len(self.errors)})"
        )
