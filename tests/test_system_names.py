"""Names that depend on the campaign's game system.

Seed 004 (Pathfinder): "un sort de Guérison suprême fonctionnera pour les deux", "seule une Restauration
suprême ou Guérison suprême"; the 5e French books call the same spells "Guérison" and "Restauration
supérieure". A Fortitude save is Vigueur in Pathfinder and the Constitution save in 5e.
"""

from __future__ import annotations

from test_tracks_helpers import ok


def _campaign(cli, system: str) -> None:
    ok(cli("campaign", "create", "t", "--system", system, "--seed", "5"))
    save = "fortitude" if system == "pf1e" else "con"
    ok(cli("character", "add", "Ysolde", "--max-hp", "30", "--saves", f"{save}=0"))


def test_pf1e_heal_is_guerison_supreme_for_both_disease_and_poison(cli):
    _campaign(cli, "pf1e")
    ok(cli("expose", "Ysolde", "filth_fever", "--save", "1"))
    out = ok(cli("--lang", "fr", "cure", "Ysolde", "filth_fever", "--spell", "heal")).out
    assert out.startswith("Guérison suprême")
    ok(cli("expose", "Ysolde", "deathblade", "--save", "1"))
    out = ok(cli("--lang", "fr", "cure", "Ysolde", "deathblade", "--spell", "heal")).out
    assert out.startswith("Guérison suprême")


def test_pf1e_permanent_effects_name_the_spells_as_the_seed_does(cli):
    # Mal aveuglant: "Au stade Diminué, devient définitivement Aveugle"; heal lifts it once the disease is gone
    _campaign(cli, "pf1e")
    ok(cli("expose", "Ysolde", "blinding_sickness", "--save", "1", "--deadly", "impaired"))
    out = ok(cli("--lang", "fr", "status", "Ysolde")).out
    assert "Guérison suprême" in out and "Guérison," not in out


def test_5e_keeps_the_5e_french_names(cli):
    _campaign(cli, "dnd5e")
    ok(cli("expose", "Ysolde", "blinding_sickness", "--save", "1", "--deadly", "impaired"))
    out = ok(cli("--lang", "fr", "status", "Ysolde")).out
    assert "Guérison suprême" not in out and "Guérison" in out


def test_the_dashboard_offers_spells_under_the_campaigns_names(rules):
    from sawbones.domain.engine.options import effective_options
    from sawbones.interfaces.web.pages.pages import choices

    from sawbones.presentation.locale import speaking

    options = effective_options(rules, {})
    with speaking("fr"):
        pf1e = dict(choices(rules, options, "pf1e")["spells"])
        dnd5e = dict(choices(rules, options, "dnd5e")["spells"])
    assert (pf1e["heal"], pf1e["greater_restoration"]) == ("Guérison suprême", "Restauration suprême")
    assert (dnd5e["heal"], dnd5e["greater_restoration"]) == ("Guérison", "Restauration supérieure")


def test_a_waiting_fortitude_save_is_named_as_the_system_names_it(cli):
    for system, name in (("pf1e", "Vigueur"), ("dnd5e", "jet de sauvegarde de Constitution")):
        ok(cli("campaign", "create", system, "--system", system, "--seed", "5"))
        ok(cli("character", "add", "Ysolde", "--max-hp", "30"))
        ok(cli("expose", "Ysolde", "filth_fever", "--save", "1"))
        ok(cli("advance", "1d"))
        out = ok(cli("--lang", "fr", "pending")).out
        assert name in out and ("Vigueur" not in out or system == "pf1e")
