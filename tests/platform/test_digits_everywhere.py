"""Issue 57 item 15: one digit style on every page that shows numbers. An Arabic reader sees
Arabic-Indic digits in every text a page shows (dates in a match history included), and the
numbers the page's scripts write (the Seven's "steps left", the chat's unread count) take the
page's style too (static/js/table_kit.js ``Sahrat.num``)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from games.models import Match
from tests.standing.test_pages import page  # a signed-in player's page, in their language
from tests.standing.test_rebuild import bots_play_to_the_end
from tests.tables.helpers import make_table, seat_humans

pytestmark = pytest.mark.django_db

# Texts that are identifiers, not numbers a player reads: hex hashes and seeds, code.
SKIP = {"script", "style", "code", "kbd", "samp", "pre", "template", "textarea", "svg", "title"}
VOID = {"br", "img", "input", "meta", "link", "hr", "source", "wbr", "col", "embed", "track"}


class Texts(HTMLParser):
    """The text nodes a reader sees that carry a Western digit."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        while self.stack and self.stack.pop() != tag:
            pass

    def handle_data(self, data: str) -> None:
        if not any(t in SKIP for t in self.stack) and re.search(r"[0-9]", data):
            self.found.append(data.strip())


# Identifiers a reader does not read as numbers: a card as printed on it («10♥», the rank as
# on the card itself), a match's public id (16 hex digits).
IDENTIFIERS = re.compile(r"\b(?:10|[2-9])[♠♥♦♣]|\b[0-9a-f]{16}\b")


def read_numbers(html: str) -> list[str]:
    """The texts of ``html`` that show a number in Western digits."""
    parser = Texts()
    parser.feed(html)
    return [t for t in parser.found if re.search(r"[0-9]", IDENTIFIERS.sub("", t))]


def test_a_match_history_in_arabic_shows_arabic_digits_only(django_user_model):
    # Names without digits: a name is the player's own text, kept as written.
    a = django_user_model.objects.create_user(
        "sara", password="x-Long-pass-123", display_name="سارة"
    )
    b = django_user_model.objects.create_user(
        "mona", password="x-Long-pass-123", display_name="منى"
    )
    table = make_table(a, "jakaro", {"players": 2})
    seat_humans(table, [a, b])
    bots_play_to_the_end(Match.objects.get(table=table, number=1))
    pages = (
        f"/accounts/u/{a.username}/",  # the match history: «٧ ديسمبر ٢٠٢٦، ٩:٤٣ ص»
        "/leaders/",
        "/wallet/",
        "/majlis/",  # the new table's form: «المقعد ١», «٧٠ ٪ …»
        f"/majlis/t/{table.public_id}/",
        "/friends/",
        "/",
    )
    for url in pages:
        assert read_numbers(page(a, url)) == [], url
    # In English the same history line is in Western digits, day first with the month's name.
    parser = Texts()
    parser.feed(page(a, f"/accounts/u/{a.username}/", "en"))
    assert not [t for t in parser.found if re.search(r"\d{4}-\d{2}-\d{2}", t)]
    assert [t for t in parser.found if re.fullmatch(r"\d{1,2} [A-Z][a-z]+ \d{4}, .*[AP]M", t)]
