"""Live updates: the Server-Sent Event streams (live.py), the hub that feeds them (hub.py), their subscriptions,
who may hear of a change (audience.py) and the API stream's documents (event_docs.py)."""
