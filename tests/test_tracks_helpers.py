"""Helpers for the progression-track tests: play a campaign through the CLI with typed dice."""

from __future__ import annotations


def ok(result):
    assert result.code == 0, f"exit {result.code}: {result.err}{result.out}"
    return result


def setup(cli, system: str = "pf1e", fort: int = 0, name: str = "Aria", hp: int = 40, *options: str) -> None:
    ok(cli("campaign", "create", "t", "--system", system, "--seed", "7"))
    save = "fortitude" if system == "pf1e" else "con"
    ok(cli("character", "add", name, "--saves", f"{save}={fort}", "--max-hp", str(hp)))
    for pair in options:
        key, _, value = pair.partition("=")
        ok(cli("campaign", "set", key, value))


def expose(cli, name: str, affliction: str, total: int | None = None, *extra: str) -> dict:
    args = ["--json", "expose", name, affliction, *extra]
    if total is not None:
        args += ["--save", str(total)]
    return ok(cli(*args)).json


def saves(cli, totals: list[int], duration: str = "8w") -> dict:
    """Advance (stopping at each save) and answer every pending save with the next typed total."""
    doc = ok(cli("--json", "advance", duration)).json
    for total in totals:
        assert doc["pending"], f"expected a save waiting for {total}, got none"
        doc = ok(cli("--json", "answer", doc["pending"][0]["id"], str(total))).json
    return doc


def character(cli, name: str = "Aria") -> dict:
    return ok(cli("--json", "status", name)).json["characters"][0]


def affliction(cli, name: str = "Aria", key: str | None = None) -> dict | None:
    afflictions = character(cli, name)["afflictions"]
    if key is None:
        return afflictions[-1] if afflictions else None
    return next((a for a in afflictions if key in (a["id"], a["affliction"])), None)


def stages(doc: dict | None) -> list[str]:
    return [t["stage"] for t in doc["tracks"]] if doc else []
