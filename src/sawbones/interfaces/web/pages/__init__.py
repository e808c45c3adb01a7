"""The HTML pages: home, the GM dashboard and its live parts, the player's page, the tables, the odds charts, the
Foundry VTT module; the templates they render are in ../templates."""
