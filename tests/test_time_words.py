"""The game clock in words (presentation/time_words.py), in the reader's language, and the engine's Messages said
per interface (issue 38): the words come from the catalog, the domain only counts seconds."""

from __future__ import annotations

from sawbones.domain.engine.state import DAY, HOUR, MINUTE, ROUND
from sawbones.presentation.locale import addressing, say, speaking
from sawbones.presentation.time_words import describe, describe_in, describe_span


def test_the_clock_in_english():
    assert describe(2 * DAY + 14 * HOUR + 5 * MINUTE + 6) == "day 3, 14:05:06"
    assert describe_span(ROUND) == "1 round" and describe_span(4 * ROUND) == "4 rounds"
    assert describe_span(DAY) == "1 day" and describe_span(2 * DAY + 3 * HOUR) == "2 days 3 h"
    assert describe_span(10 * MINUTE) == "10 min"
    assert describe_in(0) == "now" and describe_in(4 * ROUND) == "in 4 rounds"


def test_the_clock_in_french_with_the_catalogs_plurals():
    with speaking("fr"):
        assert describe(0) == "jour 1, 00:00:00"
        assert describe_span(DAY) == "1 jour" and describe_span(2 * DAY + 3 * HOUR) == "2 jours 3 h"
        assert describe_span(4 * ROUND) == "4 tours"
        assert describe_in(0) == "maintenant" and describe_in(HOUR) == "dans 1 h"
    assert describe_span(DAY) == "1 day"  # the language before the block comes back


def test_an_engine_message_names_the_option_as_each_interface_does():
    from sawbones.domain.engine.roll_match import RollContext, read_roll
    from sawbones.content.loader import load_rules
    from sawbones.errors import UsageError

    try:
        read_roll(RollContext("attack", skill="medicine"), load_rules(), {}, "dnd5e")
    except UsageError as exc:
        assert exc.message == "--skill goes with a skill or check roll"  # the English, as before
        with speaking("fr"):
            assert say(exc.text) == "--skill va avec un jet de compétence ou un test"
            with addressing("api"):
                assert say(exc.text) == "skill va avec un jet de compétence ou un test"
    else:  # pragma: no cover
        raise AssertionError("a skill on an attack roll is refused")
