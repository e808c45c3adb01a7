"""The JSON API, one module per area with the same names as the CLI's (cli/): campaigns, injuries, wounds,
afflictions, odds (+ odds_injury), rules, and events (the SSE stream for GM tools). app.py loads each by
name: a module whose rules are absent is skipped."""
