"""One d20 gives both the severity and the row of a damage type's injury table (INJ-4 to INJ-6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...frozen import frozen
from ...content.checks import band_of, parse_range
from ...errors import UsageError
from ...message import msg

if TYPE_CHECKING:
    from ...content.rules import Rules


@frozen
class Pick:
    table: str
    d20: int
    severity: str
    row_index: int
    row: Any  # schema.InjuryRow
    injury: Any  # schema.InjuryDef


def _severity_for(rules: Rules, band_set: str, d20: int) -> str:
    for band in rules.band_sets[band_set].bands:
        low, high = parse_range(band.d20)
        if low <= d20 <= high:
            severity: str = band.severity
            return severity
    raise UsageError(msg("d20 {d20} is outside the {band_set} bands", d20=d20, band_set=band_set))  # unreachable: coverage is checked at load


def pick_row(rules: Rules, table_id: str, d20: int, bands: str = "standard", mapping: str = "by_tier") -> Pick:
    """The row and severity of one d20 on a damage-type table."""
    table_id = rules.resolve("damage_tables", table_id)
    table = rules.damage_tables[table_id]
    if not 1 <= d20 <= 20:
        raise UsageError(msg("a d20 shows 1 to 20, not {d20}", d20=d20))
    standard = rules.band_sets["standard"]
    raw_index = next(i for i, r in enumerate(table.rows) if _holds(r.d20, d20))
    raw_severity = band_of(standard, table.rows[raw_index].d20)
    assert raw_severity is not None, "checked at load: the standard bands cover every row of a table"
    if bands == "standard":
        index, severity = raw_index, raw_severity
    else:
        severity = _severity_for(rules, "lenient", d20)
        index = raw_index
        if mapping == "by_tier" and severity != raw_severity:
            same_tier = [i for i, r in enumerate(table.rows) if band_of(standard, r.d20) == severity]
            if same_tier:
                index = min(same_tier, key=lambda i: _distance(table.rows[i].d20, d20))
    row = table.rows[index]
    return Pick(table_id, d20, severity, index, row, rules.get("injuries", row.injury))


def _holds(d20_range: str, face: int) -> bool:
    low, high = parse_range(d20_range)
    return low <= face <= high


def _distance(d20_range: str, face: int) -> int:
    low, high = parse_range(d20_range)
    return 0 if low <= face <= high else min(abs(face - low), abs(face - high))


def row_odds(rules: Rules, table_id: str, bands: str = "standard", mapping: str = "by_tier") -> dict[int, float]:
    """Probability of each row index on a fair d20 (for tests and the tables view)."""
    odds: dict[int, float] = {}
    for face in range(1, 21):
        pick = pick_row(rules, table_id, face, bands, mapping)
        odds[pick.row_index] = odds.get(pick.row_index, 0) + 1 / 20
    return odds
