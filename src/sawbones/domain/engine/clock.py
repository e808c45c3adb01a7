"""Game time: durations typed by the GM ("3r", "10min", "8h", "2d", "1w"). How the clock reads, in words, is the
presentation's (presentation/time_words.py)."""

from __future__ import annotations

from ...durations import MAX_ADVANCE as MAX_ADVANCE, parse_duration as parse_duration  # (content reads them too)
