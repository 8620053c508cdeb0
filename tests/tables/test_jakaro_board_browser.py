"""The Jakaro board (issue 12) played through the page in headless Chromium, against a real
Daphne and a real Celery worker (tests/tables/conftest.py, ``live_site``). Each test puts the
match in a scripted position (the scenario format, written to the match's snapshot and broadcast
like any change) and plays it by tapping cards, marbles and squares; Sara plays on a phone in
Arabic, Ali watches the result on a desktop in English. Screenshots go to test-artifacts/."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

import games
from games import services
from games.jakaro.scenario import build
from games.models import Match, Table
from tests.conftest import ARTIFACTS
from tests.tables.test_browser_tables import (  # noqa: F401  (majlis is a fixture)
    PHONE,
    majlis,
    open_as,
    player,
    sit,
    wait_live,
    wait_seq,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
ENGINE = games.get("jakaro")


def set_position(table_id: str, position: dict) -> Match:
    """Put the table's match in a scripted position and tell the pages, as a move would. In a
    thread of its own: Playwright's event loop in this one forbids the channel layer's sync
    call."""
    done: list[Match] = []

    def work() -> None:
        try:
            table = Table.objects.get(public_id=table_id)
            match = Match.objects.get(table=table, status=Match.Status.PLAYING)
            state, _rng = build(position)
            match.snapshot = ENGINE.to_json(state)
            match.seq += 1
            match.save(update_fields=["snapshot", "seq"])
            services.broadcast(table, match)
            done.append(match)
        finally:
            connection.close()

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    assert done, "the position was not set"
    return done[0]


def state_of(match: Match):
    match.refresh_from_db()
    return ENGINE.from_json(match.snapshot)


@pytest.fixture
def pair(live_site, chromium, majlis, django_user_model):  # noqa: F811
    """Sara (seat 0, phone, Arabic) and Ali (seat 1, desktop, English) at a two-player table."""
    base = live_site
    sara = player(django_user_model, "sara", "سارة")
    ali = player(django_user_model, "ali", "Ali", lang="en")
    ctx_a, a = open_as(chromium, base, sara)
    ctx_b, b = open_as(chromium, base, ali, "en")
    b.set_viewport_size(DESKTOP)
    table = services.table_create(user=sara, game="jakaro", options={"players": 2}, majlis=majlis)
    for page in (a, b):
        page.goto(f"{base}/majlis/t/{table.public_id}/")
        wait_live(page)
    sit(a, 0)
    sit(b, 1)
    for page in (a, b):
        page.wait_for_selector("#table-live[data-status='playing']")
    try:
        yield table.public_id, a, b
    finally:
        ctx_a.close()
        ctx_b.close()


def scripted(table_id: str, pages, position: dict) -> Match:
    match = set_position(table_id, {"players": 2, "turn": 0, **position})
    for page in pages:
        wait_seq(page, match.seq)
    return match


def marble(page, i: int):
    return page.locator(f"#jakaro .jk-marble[data-m='{i}']")


def square(page, n: int):
    return page.locator(f"#jakaro .jk-sq:not(.jk-home)[data-sq='{n}']")


def lit(page) -> set[int]:
    return {
        int(x)
        for x in page.locator("#jakaro .jk-marble.can").evaluate_all(
            "els => els.map(e => e.dataset.m)"
        )
    }


def card(page, text: str):
    return page.locator(f"#jakaro .jk-card[data-card='{text}']")


def wait_pos(page, i: int, pos: int) -> None:
    page.wait_for_selector(f"#jakaro .jk-marble[data-m='{i}'][data-pos='{pos}']")


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"jakaro-{name}.png"), full_page=True)


def test_card_marble_target_and_one_tap_moves(pair):
    table_id, a, b = pair
    # The Ace: out, or 1 or 11 as two targets.
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [5, "base", "base", "base"], 1: [50, "base", "base", "base"]},
            "hands": {0: ["AS", "8H", "2C"], 1: ["3C", "4C", "6C"]},
        },
    )
    shot(a, "board-ar")
    shot(b, "board-en")
    card(a, "AS").click()
    assert lit(a) == {0, 1}  # marble 0 moves 1 or 11; marble 1 comes out
    marble(a, 0).click()
    targets = a.locator("#jakaro .jk-sq.target")
    assert sorted(int(t) for t in targets.evaluate_all("els => els.map(e => e.dataset.sq)")) == [
        6,
        16,
    ]
    shot(a, "ace-targets-ar")
    square(a, 16).click()
    wait_pos(b, 0, 16)  # Ali sees it
    wait_pos(a, 0, 16)
    assert state_of(match).marbles[0] == 16
    assert "11" in b.get_by_test_id("last-move").inner_text()

    # One move for a card and a marble: the marble's tap plays it.
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [16, "base", "base", "base"], 1: [50, "base", "base", "base"]},
            "hands": {0: ["8H", "2C"], 1: ["3C", "4C"]},
        },
    )
    card(a, "8H").click()
    assert lit(a) == {0}
    marble(a, 0).click()
    wait_pos(b, 0, 24)
    assert state_of(match).marbles[0] == 24
