"""The player's view and prompts (issue 12): GET /api/player/{token} and .../prompts, in-process, 6 characters
each with a disease and a wound after a 3-day advance. Run: .venv/bin/python benchmarks/bench_player_view.py"""
import time, warnings, tempfile
warnings.simplefilter("ignore")
from fastapi.testclient import TestClient
from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
db = tempfile.mktemp(suffix=".db")
c = TestClient(create_app(lambda: Service.open(db)))
s = c.post("/api/campaigns", json={"name": "T", "system": "pf1e", "seed": 5}).json()["gm_secret"]
H = {"Authorization": f"Bearer {s}"}
for n in range(6):
    c.post("/api/campaigns/T/characters", json={"name": f"C{n}", "max_hp": 30, "saves": {"fortitude": 2}}, headers=H)
    c.post("/api/campaigns/T/expose", json={"character": f"C{n}", "affliction": "filth_fever", "save": 1}, headers=H)
    c.post("/api/campaigns/T/wound", json={"character": f"C{n}", "part": "arm", "side": "left", "damage": 3}, headers=H)
c.put("/api/campaigns/T/options/who_rolls", json={"value": "players"}, headers=H)
c.post("/api/campaigns/T/advance", json={"duration": "3d", "auto": True}, headers=H)
t = c.get("/api/campaigns/T/characters/C0/player-link", headers=H).json()["url"].rsplit("/",1)[1]
for path in (f"/api/player/{t}", f"/api/player/{t}/prompts"):
    c.get(path)
    times = []
    for _ in range(50):
        t0 = time.perf_counter(); r = c.get(path); times.append(time.perf_counter() - t0)
        assert r.status_code == 200
    times.sort()
    print(path.split(t)[1] or "/", "median %.1f ms, max %.1f ms" % (times[25]*1000, times[-1]*1000))
