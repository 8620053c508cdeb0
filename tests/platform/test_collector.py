"""The web process's garbage collector is tuned once its application is loaded
(realtime/collector.py): checked in a fresh interpreter that loads the application as Daphne
does, so the test process's own collector settings prove nothing either way."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

from realtime import collector

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import gc, json; before = gc.get_threshold(); import sahrat_site.asgi; "
    "print(json.dumps([before, gc.get_threshold(), gc.get_freeze_count()]))"
)


def test_loading_the_application_freezes_start_up_and_sets_the_thresholds():
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "sahrat_site.settings"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    before, after, frozen = json.loads(out.stdout.strip().splitlines()[-1])
    assert before != after  # Python's own before the application loaded
    assert after == [collector.YOUNG, collector.MIDDLE, collector.OLD]
    assert frozen > 10_000  # Django and the project's modules, out of the collector's sight


def test_the_test_runners_own_process_keeps_pythons_collector():
    before = gc.get_threshold()
    collector.tune()  # as importing the application in a consumer's test does
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
