"""The presentation layer: between the application and the interfaces (CLI, web, Discord bot).

It holds what every interface shows the same way: the locale (the reader's language as a context, the gettext
catalogs, numbers and plurals), the read models (documents) and the sentences that tell events. The CLI, the web
and the bots import it; it imports nothing from them.

- locale.py: the language and the audience (contexts), `_`, `ngettext`, `pgettext`, `npgettext`, `say`, `name`.
- typeset.py: numbers, chances, units and counts, ordinals, lists and colons (Babel's CLDR data, the catalog).
- views.py (and affliction_status.py): the campaign, options, characters and status documents and their lines.
- sentences.py, sentence_parts.py: one sentence per event type; log_view.py: the log and undo in sentences.
- save_words.py, moment_words.py, odds_words.py: saves and spells as a system names them, pending rolls, odds.
- links.py: the addresses player links are printed with, and their QR codes.
"""
