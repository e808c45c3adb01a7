"""The docs that come from content stay in step with it."""

from sawbones import docs


def test_rules_md_options_table_is_up_to_date():
    assert docs.main(["--check"]) == 0, "run `python -m sawbones.docs`"


def test_every_option_is_documented(rules):
    text = docs.options_markdown()
    for option_id in rules.options:
        assert f"`{option_id}`" in text
