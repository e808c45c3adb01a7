"""Checks across content files: dangling ids, d20 coverage, dice formulas, track shape."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from .. import dice
from ..errors import ContentError, DiceError
from ..message import Listed, Message, PerAudience, msg, pmsg
from . import schema as s
from .models import field_names, is_model
from .schema import singular

if TYPE_CHECKING:
    from .rules import Rules


def parse_range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    a = int(low)
    b = int(high) if high.strip() else a
    return a, b


def _walk(node: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Every content model inside node, with its path."""
    if is_model(node):
        yield path, node
        for name in field_names(node):
            yield from _walk(getattr(node, name), f"{path}.{name}")
    elif isinstance(node, (tuple, list)):
        for i, item in enumerate(node):
            label = getattr(item, "id", None) or i
            yield from _walk(item, f"{path}[{label}]")
    elif isinstance(node, dict):
        for key, item in node.items():
            yield from _walk(item, f"{path}.{key}")


class _Checker:
    def __init__(self, rules: "Rules") -> None:
        self.rules = rules
        self.sec = rules.sections

    def fail(self, section: str, entry_id: str, path: str, message: str | Message | PerAudience) -> None:
        origin = self.rules.origins.get((section, entry_id), "?")
        raise ContentError(message, f"{origin}: {path}")

    def need(self, section: str, entry_id: str, path: str, ref_section: str, ref: str | None) -> None:
        if ref is not None and ref not in self.sec[ref_section]:
            self.fail(section, entry_id, path, msg("unknown {section} id {ref}", section=pmsg("content section",
                                                                                               singular(ref_section)),
                                                   ref=repr(ref)))

    def formula(self, section: str, entry_id: str, path: str, text: str | None) -> None:
        if text is None:
            return
        try:
            dice.parse(text)
        except DiceError as exc:
            self.fail(section, entry_id, path, exc.text)

    def coverage(self, section: str, entry_id: str, path: str, ranges: list[tuple[str, str]]) -> None:
        seen: dict[int, str] = {}
        for label, text in ranges:
            low, high = parse_range(text)
            if not 1 <= low <= high <= 20:
                self.fail(section, entry_id, f"{path}{label}", msg("d20 range {range} is not within 1-20", range=repr(text)))
            for face in range(low, high + 1):
                if face in seen:
                    self.fail(section, entry_id, f"{path}{label}", msg("d20 face {face} is covered twice ({first} and "
                                                                         "{second})", face=face, first=seen[face],
                                                                         second=text))
                seen[face] = text
        missing = [f for f in range(1, 21) if f not in seen]
        if missing:
            self.fail(section, entry_id, path, msg("d20 faces {faces} are not covered by any row", faces=missing))

    # ------------------------------------------------------------ per model type
    def model(self, section: str, entry_id: str, path: str, m: Any) -> None:
        if isinstance(m, s.Guarded) or isinstance(m, s.NoteEffect):
            for key in m.if_option:
                self.need(section, entry_id, f"{path}.if_option", "options", key)
        if isinstance(m, s.Rolls):
            for skill in m.skills:
                self.need(section, entry_id, f"{path}.skills", "skills", skill)
            for save in m.saves:
                self.need(section, entry_id, f"{path}.saves", "saves", save)
        elif isinstance(m, s.ConditionEffect):
            self.need(section, entry_id, f"{path}.condition", "conditions", m.condition)
            if m.duration_option is not None:
                self.need(section, entry_id, f"{path}.duration_option", "options", m.duration_option)
                option = self.sec["options"].get(m.duration_option)
                if option is not None and not option.durations:
                    self.fail(section, entry_id, f"{path}.duration_option",
                              msg("option {option_id} gives no durations", option_id=repr(option.id)))
        elif isinstance(m, s.Restriction):
            self.need(section, entry_id, f"{path}.restriction", "restrictions", m.restriction)
        elif isinstance(m, s.AbilityChange):
            if (m.change is None) == (m.set_ is None):
                self.fail(section, entry_id, path, msg("an ability effect has either change or set, not both"))
            elif isinstance(m.change, str):
                self.formula(section, entry_id, f"{path}.change", m.change)
        elif isinstance(m, s.Trigger):
            self.formula(section, entry_id, f"{path}.deadline_days", m.deadline_days)
            if m.on == "deadline" and not m.deadline_days:
                self.fail(section, entry_id, path, msg("a deadline trigger needs deadline_days"))
            if m.stage is not None and m.on != "stage_entered":
                self.fail(section, entry_id, f"{path}.stage", msg("only a stage_entered trigger takes a stage"))
            if m.result is not None and m.on != "affliction_save":
                self.fail(section, entry_id, f"{path}.result", msg("only an affliction_save trigger takes a result"))
        elif isinstance(m, s.RecoveryFloor):
            for key in m.if_option:
                self.need(section, entry_id, f"{path}.if_option", "options", key)
            for spell in m.lifted_by:
                self.need(section, entry_id, f"{path}.lifted_by", "spells", spell)
        elif isinstance(m, s.Cure):
            for key in m.heal_cures_if_option:
                self.need(section, entry_id, f"{path}.heal_cures_if_option", "options", key)
        elif isinstance(m, s.SaveSpec):
            if m.save not in self.sec["abilities"] and m.save not in self.sec["saves"]:
                self.fail(section, entry_id, f"{path}.save", msg("unknown save {save}", save=repr(m.save)))
        elif isinstance(m, s.Outcome):
            if m.is_empty():
                self.fail(section, entry_id, path, msg("a trigger outcome must do something"))
            for name in ("hp_loss", "extra_damage", "max_hp_loss"):
                self.formula(section, entry_id, f"{path}.{name}", getattr(m, name))
            for ability, text in m.ability_loss.items():
                self.formula(section, entry_id, f"{path}.ability_loss.{ability}", text)
            self.need(section, entry_id, f"{path}.become", "injuries", m.become)
            self.need(section, entry_id, f"{path}.condition", "conditions", m.condition)
            for spell in m.removed_by:
                self.need(section, entry_id, f"{path}.removed_by", "spells", spell)
            if m.removed_by_option is not None:
                self.need(section, entry_id, f"{path}.removed_by_option", "options", m.removed_by_option)
                option = self.sec["options"][m.removed_by_option]
                if option.type != "list":
                    self.fail(section, entry_id, f"{path}.removed_by_option",
                              msg("option {option_id} is not a list of spells", option_id=repr(option.id)))
                for spell in option.default or ():
                    self.need("options", option.id, f"options[{option.id}].default", "spells", spell)
            if (m.removed_by or m.removed_by_option) and not (m.permanent and m.condition):
                self.fail(section, entry_id, path, msg("removed_by is for a permanent condition (condition + permanent)"))
        elif isinstance(m, s.TreatmentTime):
            self.formula(section, entry_id, f"{path}.amount", m.amount)
            if not m.amount and not m.from_option:
                self.fail(section, entry_id, path, msg("a treatment time needs an amount or from_option"))
            self.need(section, entry_id, f"{path}.from_option", "options", m.from_option)

    def entries(self) -> None:
        for section, entries in self.sec.items():
            for entry_id, entry in entries.items():
                for path, m in _walk(entry, f"{section}[{entry_id}]"):
                    self.model(section, entry_id, path, m)

    # ------------------------------------------------------------ per section
    def injuries(self) -> None:
        bands = self.sec["band_sets"]
        for band_id, band_set in bands.items():
            where = f"band_sets[{band_id}]"
            for i, band in enumerate(band_set.bands):
                self.need("band_sets", band_id, f"{where}.bands[{i}].severity", "severities", band.severity)
            self.coverage("band_sets", band_id, f"{where}.bands", [(f"[{i}]", b.d20) for i, b in enumerate(band_set.bands)])
        for sev_id, sev in self.sec["severities"].items():
            self.need("severities", sev_id, f"severities[{sev_id}].magic_tier", "magic_tiers", sev.magic_tier)
            choice = sev.magic_tier_choice
            if choice is not None:
                where = f"severities[{sev_id}].magic_tier_choice"
                self.need("severities", sev_id, f"{where}.option", "options", choice.option)
                option = self.sec["options"].get(choice.option)
                if option is not None and set(option.choices) != set(choice.tiers):
                    self.fail("severities", sev_id, f"{where}.tiers",
                              msg("must give the tiers of every value of option {option_id}: {values}",
                                  option_id=repr(choice.option), values=Listed(option.choices, "")))
                for value, tiers in choice.tiers.items():
                    for tier in tiers:
                        self.need("severities", sev_id, f"{where}.tiers.{value}", "magic_tiers", tier)
        for inj_id, inj in self.sec["injuries"].items():
            self.need("injuries", inj_id, f"injuries[{inj_id}].magic_tier", "magic_tiers", inj.magic_tier)
        for spell_id, spell in self.sec["spells"].items():
            self.need("spells", spell_id, f"spells[{spell_id}].injury_tier", "magic_tiers", spell.injury_tier)
        standard = bands.get("standard")
        for table_id, table in self.sec["damage_tables"].items():
            where = f"damage_tables[{table_id}]"
            self.coverage("damage_tables", table_id, f"{where}.rows", [(f"[{i}]", r.d20) for i, r in enumerate(table.rows)])
            for i, row in enumerate(table.rows):
                self.need("damage_tables", table_id, f"{where}.rows[{i}].injury", "injuries", row.injury)
                if standard and band_of(standard, row.d20) is None:
                    self.fail("damage_tables", table_id, f"{where}.rows[{i}].d20",
                              msg("row {row} straddles two severity bands", row=repr(row.d20)))

    def vocabulary(self) -> None:
        for section in ("skills", "saves"):
            for entry_id, entry in self.sec[section].items():
                for system, target in entry.maps_to.items():
                    pool = self.sec["abilities"] if section == "saves" else self.sec["skills"]
                    if target not in pool:
                        self.fail(section, entry_id, f"{section}[{entry_id}].maps_to.{system}",
                                  msg("unknown id {target}", target=repr(target)))
        for part_id, part in self.sec["body_parts"].items():
            self.need("body_parts", part_id, f"body_parts[{part_id}].both_sides_condition", "conditions",
                      part.both_sides_condition)
        for cond_id, entry in self.sec["condition_readings"].items():
            where = f"condition_readings[{cond_id}]"
            self.need("condition_readings", cond_id, f"{where}.id", "conditions", cond_id)
            for system in ("dnd5e", "pf1e"):
                reading = entry.reading(system)
                for other in reading.supersedes if reading else ():
                    self.need("condition_readings", cond_id, f"{where}.{system}.supersedes", "conditions", other)
        for skill_id in self.sec["skill_senses"]:
            self.need("skill_senses", skill_id, f"skill_senses[{skill_id}].id", "skills", skill_id)
        for opt_id, opt in self.sec["options"].items():
            if opt.type == "choice":
                for label, value in (("default", opt.default), ("original", opt.original)):
                    if value is not None and value not in opt.choices:
                        self.fail("options", opt_id, f"options[{opt_id}].{label}",
                                  msg("{value} is not one of {choices}", value=repr(value), choices=list(opt.choices)))
            if opt.type == "dice":
                self.formula("options", opt_id, f"options[{opt_id}].default", opt.default)
        models = self.sec["hit_point_models"]
        for system in ("dnd5e", "pf1e"):
            if system not in models:
                raise ContentError(msg("no hit point model for system {system}", system=repr(system)), "hit_point_models")
        for system, model in models.items():
            if model.dying_check is not None:
                self.formula("hit_point_models", system, f"hit_point_models[{system}].dying_check.hp_loss",
                             model.dying_check.hp_loss)

    def tracks(self) -> None:
        tracks = self.sec["tracks"]
        for track_id, track in tracks.items():
            where = f"tracks[{track_id}]"
            ids = [stage.id for stage in track.stages]
            if ids[0] != "healthy":
                self.fail("tracks", track_id, f"{where}.stages", msg("a track must start with a 'healthy' stage"))
            if len(set(ids)) != len(ids):
                self.fail("tracks", track_id, f"{where}.stages", msg("stage ids must be unique within a track"))
            if track.end_state is not None and track.end_state not in ids:
                self.fail("tracks", track_id, f"{where}.end_state", msg("unknown stage {stage}", stage=repr(track.end_state)))
            for stage in track.stages:
                if stage.inherit:
                    other, _, stage_id = stage.inherit.partition(".")
                    if other not in tracks or stage_id not in {st.id for st in tracks[other].stages}:
                        self.fail("tracks", track_id, f"{where}.stages[{stage.id}].inherit",
                                  msg("unknown stage {stage} (expected track_id.stage_id)", stage=repr(stage.inherit)))
        for aff_id, aff in self.sec["afflictions"].items():
            where = f"afflictions[{aff_id}]"
            stage_ids: set[str] = set()
            for track_id in aff.tracks:
                self.need("afflictions", aff_id, f"{where}.tracks", "tracks", track_id)
                stage_ids |= {st.id for st in tracks[track_id].stages}
            for label, stage in (("start_stage", aff.start_stage),
                                 ("failures_per_stage.after", aff.failures_per_stage and aff.failures_per_stage.after)):
                if stage and stage not in stage_ids:
                    self.fail("afflictions", aff_id, f"{where}.{label}", msg("unknown stage {stage} on its tracks",
                                                                             stage=repr(stage)))
            for spell in aff.cure.spells:
                self.need("afflictions", aff_id, f"{where}.cure.spells", "spells", spell)
            if aff.save not in self.sec["saves"] and aff.save not in self.sec["abilities"]:
                self.fail("afflictions", aff_id, f"{where}.save", msg("unknown save {save}", save=repr(aff.save)))
            cure = aff.cure
            if not (cure.consecutive_saves or cure.magic_only or cure.spells):
                self.fail("afflictions", aff_id, f"{where}.cure", msg("a cure needs consecutive_saves, magic_only or spells"))
            for i, effect in enumerate(aff.effects):
                if isinstance(effect, s.Trigger) and effect.on == "stage_entered":
                    if effect.stage is None:
                        self.fail("afflictions", aff_id, f"{where}.effects[{i}]",
                                  msg("a stage_entered trigger of an affliction needs the stage it fires at"))
                    if effect.stage not in stage_ids:
                        self.fail("afflictions", aff_id, f"{where}.effects[{i}].stage",
                                  msg("unknown stage {stage} on its tracks", stage=repr(effect.stage)))
            for i, floor in enumerate(aff.recovery_floors):
                for label, stage in (("floor", floor.floor), ("once_reached", floor.once_reached)):
                    if stage is not None and stage not in stage_ids:
                        self.fail("afflictions", aff_id, f"{where}.recovery_floors[{i}].{label}",
                                  msg("unknown stage {stage} on its tracks", stage=repr(stage)))
        for track_id, track in tracks.items():
            for stage in track.stages:
                for i, effect in enumerate(stage.effects):
                    if isinstance(effect, s.Trigger) and effect.stage is not None and effect.stage != stage.id:
                        self.fail("tracks", track_id, f"tracks[{track_id}].stages[{stage.id}].effects[{i}].stage",
                                  msg("a stage's own stage_entered trigger fires on entering that stage: leave stage "
                                      "out or name this stage"))

    def options(self) -> None:
        """Durations and refused values name declared choices; a duration reads; the default is never refused."""
        from ..durations import END_OF_COMBAT, parse_duration
        from ..errors import UsageError

        for opt_id, opt in self.sec["options"].items():
            allowed = ("true", "false") if opt.type == "bool" else opt.choices
            for field in ("durations", "not_modelled"):
                for value in getattr(opt, field):
                    if value not in allowed and not (field == "not_modelled" and value == "*"):
                        self.fail("options", opt_id, f"options[{opt_id}].{field}.{value}",
                                  msg("{value} is not one of the values ({values})", value=repr(value),
                                      values=Listed(allowed, "")))
            for value, text in opt.durations.items():
                try:
                    if text != END_OF_COMBAT:
                        parse_duration(text)
                except UsageError as exc:
                    self.fail("options", opt_id, f"options[{opt_id}].durations.{value}", exc.text)
            self.int_bounds(opt_id, opt)
            self.choice_names(opt_id, opt)
            default = str(opt.default).lower() if isinstance(opt.default, bool) else opt.default
            if isinstance(default, str) and default in opt.not_modelled:
                self.fail("options", opt_id, f"options[{opt_id}].not_modelled", msg("the default cannot be refused"))


    def choice_names(self, opt_id: str, opt: s.OptionDef) -> None:
        """A choice option names each of its values, and no other, in both languages (`campaign options --lang fr`
        shows them, `campaign set` takes them); two values never read alike (case and accents aside)."""
        from .rules import fold

        where = f"options[{opt_id}].choice_names"
        if opt.type != "choice":
            if opt.choice_names:
                self.fail("options", opt_id, where, msg("only a choice option (type: choice) names its values"))
            return
        for value in opt.choices:
            if value not in opt.choice_names:
                self.fail("options", opt_id, f"{where}.{value}", msg("the value {value} has no name (fr and en)",
                                                                     value=repr(value)))
        seen: dict[str, str] = {}
        for value, name in opt.choice_names.items():
            if value not in opt.choices:
                self.fail("options", opt_id, f"{where}.{value}",
                          msg("{value} is not one of the values ({values})", value=repr(value),
                              values=Listed(opt.choices, "")))
            for spelled in {fold(x).replace("_", " ") for x in (value, *name.by_language().values())}:
                if seen.setdefault(spelled, value) != value:
                    self.fail("options", opt_id, f"{where}.{value}", msg("{value} reads as {other} does", value=repr(value),
                                                                         other=repr(seen[spelled])))

    def int_bounds(self, opt_id: str, opt: s.OptionDef) -> None:
        """An int option's minimum and maximum: only on an int, a maximum with its minimum, the default between."""
        where = f"options[{opt_id}]"
        if opt.type != "int":
            if opt.minimum is not None or opt.maximum is not None:
                self.fail("options", opt_id, f"{where}.minimum", msg("only a whole-number option (type: int) has bounds"))
            return
        if opt.maximum is not None and (opt.minimum is None or opt.maximum < opt.minimum):
            self.fail("options", opt_id, f"{where}.maximum", msg("a maximum needs a minimum no larger than it"))
        elif isinstance(opt.default, int) and not ((opt.minimum is None or opt.minimum <= opt.default)
                                                    and (opt.maximum is None or opt.default <= opt.maximum)):
            self.fail("options", opt_id, f"{where}.default", msg("{value} is outside the option's bounds",
                                                                 value=opt.default))


def band_of(band_set: s.BandSet, d20_range: str) -> str | None:
    """The severity whose band holds the whole range, or None when it straddles two."""
    low, high = parse_range(d20_range)
    for band in band_set.bands:
        a, b = parse_range(band.d20)
        if a <= low and high <= b:
            return band.severity
    return None


def check_rules(rules: "Rules") -> None:
    checker = _Checker(rules)
    checker.entries()
    checker.injuries()
    checker.vocabulary()
    checker.tracks()
    checker.options()
