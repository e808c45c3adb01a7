"""The presentation layer: between the application and the interfaces (CLI, web, Discord bot).

It holds what every interface shows the same way: the locale (the reader's language as a context, the gettext
catalogs, numbers and plurals), the read models (documents) and the sentences that tell events. The CLI, the web
and the bots import it; it imports nothing from them.
"""
