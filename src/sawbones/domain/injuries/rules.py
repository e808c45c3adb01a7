"""Lingering injuries (5e, seed 000): gaining one, its timers, and the effects it puts on a character.

What each injury does is content (injuries/catalog.yaml); this module runs the mechanisms the
effects name: lost parts, extremity sites, deadlines, daily losses, escalation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, cast

from ...content import schema as s
from ...errors import NotFound, RuleViolation, UsageError
from ..engine.abilities import effective_abilities
from ..engine.campaign import find_character
from ..engine.damage import injury_rule
from ..engine.effects import ActiveEffect, provider
from ..engine.evolve import handles
from .table import pick_row
from ..engine.state import DAY, HOUR, Campaign, Character, Injury, id_number, with_fields
from ..engine.timeline import scheduler
from ..engine.context import Context
from ...message import PerAudience, msg

if TYPE_CHECKING:
    from ...content.rules import Rules


Event = dict[str, Any]
MAX_REROLLS = 50


def next_id(state: Campaign, prefix: str, taken: int = 0) -> str:
    return f"{prefix}{state.counter + 1 + taken}"


def find_injury(character: Character, key: str) -> Injury:
    """An injury of the character by id, or by its catalog id; NotFound names the ones it has."""
    found = character.injury(key) or next((i for i in character.injuries if i.injury == key), None)
    if found is None:
        if not character.injuries:
            raise NotFound(msg("{character} has no injury {key} (no injuries at all)", character=character.name,
                                       key=repr(key)))
        known = ", ".join(f"{i.id} ({i.injury})" for i in character.injuries)
        raise NotFound(msg("{character} has no injury {key} (injuries: {known})", character=character.name,
                                   key=repr(key), known=known))
    return found


def triggers(definition: Any, on: str) -> list[s.Trigger]:
    return [e for e in definition.effects if isinstance(e, s.Trigger) and e.on == on]


def _site_effects(definition: Any) -> bool:
    return any("site_hand" in getattr(e, "while_", ()) or "site_foot" in getattr(e, "while_", ())
               or (isinstance(e, s.LosePart) and e.part == "hand_or_foot") for e in definition.effects)


def _possible(character: Character, definition: Any, site: str | None = None) -> bool:
    """False when the injury needs a part the character no longer has (a third lost eye; a hand or foot site where
    the named one, or both, are gone): a named site goes through the same check as a rolled one."""
    body = character.body
    have = {"eye": body.eyes, "hand": body.hands, "foot": body.feet}
    for effect in definition.effects:
        if isinstance(effect, s.LosePart) and effect.part in have and have[effect.part] <= 0:
            return False
    if _site_effects(definition):
        if site in ("hand", "foot"):
            return have[site] > 0
        return body.hands > 0 or body.feet > 0
    return True


def _choose_site(ctx: Context, character: Character, site: str | None) -> str:
    body = character.body
    available = [p for p, n in (("hand", body.hands), ("foot", body.feet)) if n > 0] or ["hand", "foot"]
    if site is not None:
        if site not in ("hand", "foot"):
            raise UsageError(msg("site must be hand or foot, not {site}", site=repr(site)))
        return site
    if ctx.options.get("extremity_site") == "gm":
        raise UsageError(msg("{said}", said=PerAudience(
            cli=msg("this injury strikes a hand or a foot: say which with --site hand|foot (option extremity_site=gm)"),
            api=msg("this injury strikes a hand or a foot: say which with site (hand or foot; option extremity_site=gm)"),
            page=msg("this injury strikes a hand or a foot: say which in site (option extremity_site=gm)"))))
    return available[0] if len(available) == 1 else ctx.roller.choice(available, "extremity site (hand or foot)")


@injury_rule
def gain(ctx: Context, character: Character, table: str, d20: int | None = None, site: str | None = None,
         state: Campaign | None = None, cause: str = "") -> list[Event]:
    """The events of one injury from `table`: the d20, the row, and what happens at once."""
    state = state or ctx.state
    if character.dead:
        raise RuleViolation(msg("{character} is dead", character=character.name))
    table = ctx.rules.resolve("damage_tables", table)
    bands, mapping = ctx.options.get("severity_bands", "standard"), ctx.options.get("lenient_row_mapping", "by_tier")
    face = ctx.roller.roll("1d20", f"injury d20 ({table})", given=d20)
    pick = pick_row(ctx.rules, table, face, bands, mapping)
    rerolls = 0
    while not _possible(character, pick.injury, site) and ctx.options.get("reroll_impossible", True):
        rerolls += 1  # a third lost eye: roll again (INJ-D); the events keep both rolls
        if rerolls > MAX_REROLLS:
            raise RuleViolation(msg("no possible injury for {character} on the {table} table", character=character.name,
                                    table=ctx.rules.damage_tables[table].name))
        face = ctx.roller.roll("1d20", f"injury d20 reroll: {pick.injury.id} is impossible")
        pick = pick_row(ctx.rules, table, face, bands, mapping)
    return _gain_row(ctx, character, pick, site, state, cause)


def _gain_row(ctx: Context, character: Character, pick: Any, site: str | None, state: Campaign, cause: str) -> list[Event]:
    definition = pick.injury
    severity = ctx.rules.severities[pick.severity]
    now = state.clock
    injury_id = next_id(state, "i")
    data: dict[str, Any] = {
        "id": injury_id, "character": character.id, "injury": definition.id, "table": pick.table, "d20": pick.d20,
        "severity": pick.severity, "dc": severity.treatment.dc, "at": now, "cause": cause,
        "no_natural_healing": pick.row.no_natural_healing, "magic_only": pick.row.magic_only,
    }
    if _site_effects(definition):
        data["site"] = _choose_site(ctx, character, site)
    for trigger in triggers(definition, "deadline"):
        assert trigger.deadline_days, "checked at load: a deadline trigger needs deadline_days"
        days = ctx.roller.roll(trigger.deadline_days, f"{definition.id} deadline (days)")
        data["deadline_at"] = now + days * DAY
    if triggers(definition, "day"):
        data["next_tick_at"] = _next_tick(ctx.options, now, _every_24_hours(definition))
    events: list[Event] = [{"type": "injury_gained", "data": data}]
    events += _lose_parts(definition, character, data.get("site"))
    for trigger in triggers(definition, "gained"):
        events += _apply_outcome(ctx, character, injury_id, definition, trigger.outcome, events)
    from ..engine.conditions import on_gain  # temporary conditions with a duration (temporary_condition_duration)

    events += on_gain(ctx, character, [ActiveEffect(e, "injury", injury_id, definition.id, definition.name)
                                       for e in definition.effects], now)
    data["rolls"] = list(ctx.roller.made)
    return events


def _every_24_hours(definition: Any) -> bool:
    """Its daily trigger counts 24 hours on the clock whatever daily_tick says (Sepsis)."""
    return any(t.every_24_hours for t in triggers(definition, "day"))


def _next_tick(options: dict[str, Any], now: int, every_24_hours: bool = False) -> int:
    if options.get("daily_tick") == "dawn" and not every_24_hours:  # the next dawn on the clock (option dawn_hour)
        dawn = now // DAY * DAY + int(options.get("dawn_hour", 6)) * HOUR
        return dawn if dawn > now else dawn + DAY
    return now + DAY


def _lose_parts(definition: Any, character: Character, site: str | None) -> list[Event]:
    events = []
    for effect in definition.effects:
        if isinstance(effect, s.LosePart):
            part = {"eye": "eyes", "hand": "hands", "foot": "feet"}.get(effect.part)
            if effect.part == "hand_or_foot":
                part = "hands" if site == "hand" else "feet"
            if part and getattr(character.body, part) > 0:
                events.append({"type": "body_changed", "data": {"character": character.id, "part": part, "change": -1}})
    return events


def _apply_outcome(ctx: Context, character: Character, injury_id: str, definition: Any, outcome: s.Outcome,
                   so_far: list[Event]) -> list[Event]:
    """Max-HP and ability losses of a trigger (gained / day), and death when they reach 0."""
    from ..engine.evolve import fold

    events: list[Event] = []
    current = find_character(fold(so_far, ctx.state), character.id) if so_far else character
    injury = find_injury(current, injury_id)
    if outcome.max_hp_loss:
        loss = ctx.roller.roll(outcome.max_hp_loss, f"{definition.id}: hit point maximum loss")
        max_hp = current.max_hp - loss
        events.append({"type": "hp_changed", "data": {"character": character.id, "max_hp": max_hp,
                                                      "hp": min(current.hp, max(max_hp, 0))}})
        events.append({"type": "injury_changed", "data": {"character": character.id, "injury": injury_id,
                                                          "changes": {"max_hp_lost": injury.max_hp_lost + loss}}})
        if max_hp <= 0:
            events.append({"type": "character_died", "data": {"character": character.id,
                                                              "cause": f"{definition.id}: hit point maximum 0"}})
    if outcome.ability_loss:
        lost = dict(injury.ability_lost)
        for ability, formula in outcome.ability_loss.items():
            lost[ability] = lost.get(ability, 0) + ctx.roller.roll(formula, f"{definition.id}: {ability} loss")
        events.append({"type": "injury_changed", "data": {"character": character.id, "injury": injury_id,
                                                          "changes": {"ability_lost": lost}}})
        after = with_fields(current, injuries=tuple(
            with_fields(i, ability_lost=tuple(lost.items())) if i.id == injury_id else i for i in current.injuries))
        scores = effective_abilities(after, ctx.rules, ctx.options)
        if scores["con"] <= 0 and ctx.options.get("ability_zero_rule") != "gm":
            events.append({"type": "character_died", "data": {"character": character.id,
                                                              "cause": f"{definition.id}: Constitution 0"}})
    return events


# ---------------------------------------------------------------- timers on the game clock


def _deadline_due(ctx: Context, character: Character, injury: Injury) -> list[Event]:
    definition = ctx.rules.injuries[injury.injury]
    met = injury.treatment_started and ctx.options.get("deadline_satisfied_by", "treatment_started") == "treatment_started"
    if met:
        return [{"type": "injury_changed", "data": {"character": character.id, "injury": injury.id,
                                                    "changes": {"deadline_at": None, "deadline_passed": True},
                                                    "note": "deadline met: treatment started"}}]
    return escalate(ctx, character, injury, definition)


def escalate(ctx: Context, character: Character, injury: Injury, definition: Any) -> list[Event]:
    """An untreated deadline passes: the hand or foot is lost, or the injury becomes a worse one."""
    events: list[Event] = []
    for trigger in triggers(definition, "deadline"):
        outcome = trigger.outcome
        if outcome.lose_part == "site" and not _possible(character, _lost_part_pick(ctx).injury, injury.site):
            events.append({"type": "injury_changed", "data": {  # the part at its site is already gone
                "character": character.id, "injury": injury.id, "changes": {"deadline_at": None, "deadline_passed": True},
                "note": f"deadline passed: no {injury.site} left to lose"}})
        elif outcome.lose_part == "site":
            events += replace_injury(ctx, character, injury, _lost_part_pick(ctx), injury.site, "deadline passed")
        elif outcome.become:
            pick = _critical_reroll(ctx) if ctx.options.get("frostbite_escalates_to") == "reroll_critical_any" \
                else _become_pick(ctx, injury, outcome.become)
            events += replace_injury(ctx, character, injury, pick, injury.site if pick.injury.id == outcome.become
                                     else None, "deadline passed")
    return events


def _critical_reroll(ctx: Context) -> Any:
    """frostbite_escalates_to reroll_critical_any (AMB-0-25): a new critical injury, its damage type at random,
    then a d20 within the most severe standard band."""
    from ...content.checks import parse_range

    table = ctx.roller.choice(sorted(ctx.rules.damage_tables), "new critical injury: damage type")
    worst = max(ctx.rules.severities.values(), key=lambda sev: sev.rank).id
    low, high = parse_range(next(b.d20 for b in ctx.rules.band_sets["standard"].bands if b.severity == worst))
    d20 = low - 1 + ctx.roller.roll(f"1d{high - low + 1}", f"new critical injury: d20 {low}-{high}")
    return pick_row(ctx.rules, table, d20, "standard")


_LOST_PART_PICKS: dict[int, tuple[Any, Any]] = {}  # id(rules) -> (rules, pick): found once per loaded content


def _lost_part_pick(ctx: Context) -> Any:
    """The row that names the injury with lose_part hand_or_foot (the slashing 01-02 row)."""
    hit = _LOST_PART_PICKS.get(id(ctx.rules))
    if hit is not None and hit[0] is ctx.rules:
        return hit[1]
    for table in ctx.rules.damage_tables.values():
        for index, row in enumerate(table.rows):
            definition = ctx.rules.injuries[row.injury]
            if any(isinstance(e, s.LosePart) and e.part == "hand_or_foot" for e in definition.effects):
                if len(_LOST_PART_PICKS) > 16:
                    _LOST_PART_PICKS.clear()
                _LOST_PART_PICKS[id(ctx.rules)] = (ctx.rules, _pick(ctx, table.id, index))
                return _LOST_PART_PICKS[id(ctx.rules)][1]
    raise RuleViolation(msg("the content has no injury that loses a hand or foot"))


def _become_pick(ctx: Context, injury: Injury, target: str) -> Any:
    """The row of the same table that names the target injury (frostbite -> cold 01-02)."""
    tables = [ctx.rules.damage_tables[injury.table]] + list(ctx.rules.damage_tables.values())
    for table in tables:
        for index, row in enumerate(table.rows):
            if row.injury == target:
                return _pick(ctx, table.id, index)
    raise RuleViolation(msg("no table row names the injury {target}", target=repr(target)))


def _pick(ctx: Context, table_id: str, index: int) -> Any:
    """A given row (not a roll): its d20 is the row's lowest face, its severity the standard band's."""
    from ...content.checks import parse_range

    row = ctx.rules.damage_tables[table_id].rows[index]
    return pick_row(ctx.rules, table_id, parse_range(row.d20)[0], "standard")


def replace_injury(ctx: Context, character: Character, old: Injury, pick: Any, site: str | None, why: str) -> list[Event]:
    from ..engine.evolve import fold

    events: list[Event] = [{"type": "injury_healed", "data": {"character": character.id, "injury": old.id,
                                                              "how": "replaced", "why": why}}]
    state = fold(events, ctx.state)
    current = find_character(state, character.id)
    new_events = _gain_row(ctx, current, pick, site, state, f"{old.injury}: {why}")
    if ctx.options.get("carry_failures") and old.failures:
        gained = new_events[0]["data"]
        gained["dc"] += 2 * old.failures
    return events + new_events


def _daily_due(ctx: Context, character: Character, injury: Injury) -> list[Event]:
    definition = ctx.rules.injuries[injury.injury]
    assert injury.next_tick_at is not None, "only scheduled when the injury has its next tick (_injury_timers)"
    events: list[Event] = [{"type": "injury_changed", "data": {
        "character": character.id, "injury": injury.id,
        "changes": {"next_tick_at": _next_tick(ctx.options, injury.next_tick_at, _every_24_hours(definition))}}}]
    for trigger in triggers(definition, "day"):
        events += _apply_outcome(ctx, character, injury.id, definition, trigger.outcome, events)
    return events


@scheduler
def _injury_timers(ctx: Context) -> Iterable[tuple[int, str, Any]]:
    for character in ctx.state.characters:
        if character.dead:
            continue
        for injury in character.injuries:
            if injury.deadline_at is not None:
                yield (injury.deadline_at, f"1{character.id}{injury.id}",
                       lambda c, ch=character.id, i=injury.id: _due(c, ch, i, _deadline_due))
            if injury.next_tick_at is not None and (ctx.options.get("daily_tick") != "long_rest" or _every_24_hours(
                    ctx.rules.injuries[injury.injury])):
                yield (injury.next_tick_at, f"2{character.id}{injury.id}",
                       lambda c, ch=character.id, i=injury.id: _due(c, ch, i, _daily_due))


def _due(ctx: Context, character_id: str, injury_id: str,
         fn: Callable[[Context, Character, Injury], list[Event]]) -> list[Event]:
    character = find_character(ctx.state, character_id)
    injury = find_injury(character, injury_id)
    ctx.roller.made.clear()
    events = fn(ctx, character, injury)
    if events:
        events[0]["data"]["rolls"] = list(ctx.roller.made)
    return events


def daily_ticks_on_long_rest(ctx: Context, character: Character) -> list[Event]:
    """With daily_tick = long_rest, the daily losses happen when a long rest ends."""
    events: list[Event] = []
    for injury in character.injuries:
        if injury.next_tick_at is not None and not _every_24_hours(ctx.rules.injuries[injury.injury]):
            events += _daily_due(ctx, character, injury)
    return events


# ---------------------------------------------------------------- effects on the character


@provider
def _injury_effects(character: Character, rules: Rules, options: dict[str, Any]) -> Iterable[ActiveEffect]:
    for injury in character.injuries:
        definition = rules.injuries.get(injury.injury)
        if definition is None:
            continue
        detail = {"severity": injury.severity, **({"site": injury.site} if injury.site else {})}
        for effect in definition.effects:
            guards = getattr(effect, "while_", ())
            if "site_hand" in guards and injury.site != "hand" or "site_foot" in guards and injury.site != "foot":
                continue
            yield ActiveEffect(effect, "injury", injury.id, injury.injury, definition.name, detail)
        for ability, amount in injury.ability_lost:
            effect = s.AbilityChange(type="ability", ability=cast(s.Ability, ability), change=-amount, minimum=0)
            yield ActiveEffect(effect, "injury", injury.id, injury.injury, definition.name, detail)
    body = character.body
    if body.eyes <= 0:
        name = msg("No eye left")
        yield ActiveEffect(s.ConditionEffect(type="condition", condition="blinded", permanent=True), "body", "eyes",
                           "eyes", name, {})


def injure(ctx: Context, name: str, table: str, d20: int | None = None, site: str | None = None,
           cause: str = "GM's call") -> list[Event]:
    character = find_character(ctx.state, name)
    table = ctx.rules.resolve("damage_tables", table)
    return gain(ctx, character, table, d20, site, cause=cause)


# ---------------------------------------------------------------- evolve


def _injury_from(d: dict[str, Any]) -> Injury:
    return Injury(
        id=d["id"], injury=d["injury"], table=d["table"], d20=d["d20"], severity=d["severity"], dc=d["dc"],
        no_natural_healing=d.get("no_natural_healing", False), magic_only=d.get("magic_only", False),
        site=d.get("site"), gained_at=d["at"], deadline_at=d.get("deadline_at"), next_tick_at=d.get("next_tick_at"),
    )


@handles("injury_gained", mints="id")
def _injury_gained(state: Campaign, d: dict[str, Any]) -> Campaign:
    character = find_character(state, d["character"])
    updated = state.with_character(with_fields(character, injuries=character.injuries + (_injury_from(d),)))
    return with_fields(updated, counter=max(state.counter, id_number(d["id"])))


@handles("injury_changed")
def _injury_changed(state: Campaign, d: dict[str, Any]) -> Campaign:
    character = find_character(state, d["character"])
    changes = dict(d["changes"])
    if "ability_lost" in changes:
        changes["ability_lost"] = tuple(sorted(changes["ability_lost"].items()))
    injuries = tuple(with_fields(i, **changes) if i.id == d["injury"] else i for i in character.injuries)
    return state.with_character(with_fields(character, injuries=injuries))


@handles("injury_healed")
def _injury_healed(state: Campaign, d: dict[str, Any]) -> Campaign:
    character = find_character(state, d["character"])
    changes: dict[str, Any] = {"injuries": tuple(i for i in character.injuries if i.id != d["injury"])}
    for key in ("max_hp", "hp"):
        if key in d:
            changes[key] = d[key]
    return state.with_character(with_fields(character, **changes))


@handles("treatment_started")
def _treatment_started(state: Campaign, d: dict[str, Any]) -> Campaign:
    return _injury_changed(state, {"character": d["character"], "injury": d["injury"],
                                   "changes": {"treatment_started": True}})


@handles("treatment_failed")
def _treatment_failed(state: Campaign, d: dict[str, Any]) -> Campaign:
    """INJ-T2: a failed check raises that injury's DC by 2, for good."""
    injury = find_injury(find_character(state, d["character"]), d["injury"])
    return _injury_changed(state, {"character": d["character"], "injury": d["injury"], "changes": {
        "dc": injury.dc + 2, "failures": injury.failures + 1, "treatment_started": False}})


@handles("body_changed")
def _body_changed(state: Campaign, d: dict[str, Any]) -> Campaign:
    character = find_character(state, d["character"])
    body = with_fields(character.body, **{d["part"]: getattr(character.body, d["part"]) + d["change"]})
    return state.with_character(with_fields(character, body=body))
