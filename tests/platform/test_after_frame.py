"""The table page repairs itself after each frame in one stated order (issue 58: "one
after-frame dispatch with an explicit order, not nine listeners"): static/js/table_kit.js holds
the list AFTER_FRAME and the page's only htmx:wsAfterMessage listener; every other script
registers its step by name with Sahrat.afterFrame, once, under a name the list holds."""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "static" / "js"
KIT = JS / "table_kit.js"


def _order() -> list[str]:
    block = re.search(r"const AFTER_FRAME = \[(.*?)\];", KIT.read_text(encoding="utf-8"), re.S)
    assert block, "table_kit.js states no AFTER_FRAME"
    return re.findall(r'^\s*"([a-z-]+)",', block.group(1), re.M)


def _registered() -> list[tuple[str, str]]:
    """(script, step) for each Sahrat.afterFrame call outside the kit (whose header shows one)."""
    return [
        (path.name, name)
        for path in sorted(JS.glob("*.js"))
        if path != KIT
        for name in re.findall(r'Sahrat\.afterFrame\("([^"]+)"', path.read_text(encoding="utf-8"))
    ]


def test_only_the_kit_listens_for_a_frame_having_landed():
    listeners = {
        path.name: text.count('"htmx:wsAfterMessage"')
        for path in sorted(JS.glob("*.js"))
        if (text := path.read_text(encoding="utf-8")).count('"htmx:wsAfterMessage"')
    }
    assert listeners == {"table_kit.js": 1}, listeners


def test_every_step_is_in_the_stated_order_once_per_script():
    order = _order()
    registered = _registered()
    assert len(order) == len(set(order)) >= 8, order
    # "turn" is the kit's own (turnTable: the shared table marked for the page's seat), first.
    kit = KIT.read_text(encoding="utf-8")
    assert order[:2] == ["turn", "turn-game"] and 'steps.set("turn", Sahrat.turnTable)' in kit
    assert {name for _file, name in registered} | {"turn"} == set(order), (order, registered)
    # One registration of a name per script; "game" once in each game's own script, and the
    # game's turning of its part in the script of a game whose part is drawn once for all.
    assert len(registered) == len(set(registered)), registered
    games = sorted(file for file, name in registered if name == "game")
    assert games == ["hand.js", "jakaro.js"], games
    turning = sorted(file for file, name in registered if name == "turn-game")
    assert set(turning) <= {"hand.js", "jakaro.js"} and "hand.js" in turning, turning
    others = [name for _file, name in registered if name not in ("game", "turn-game")]
    assert len(others) == len(set(others)), registered


def test_the_table_scripts_run_their_steps_in_the_page_order():
    """table.js's steps are registered in the order the list states them (the focus comes back
    after the chat box and the clocks, the notice last), as they ran when each was a listener."""
    order = _order()
    table = [name for file, name in _registered() if file == "table.js"]
    assert table == [name for name in order if name in table], (table, order)
