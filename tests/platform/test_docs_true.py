"""docs/ read against the server. Each test reads a statement's value out of the document (a table
row, a regular expression, a field list) and checks it against the code that enforces it or
against the running server, so a document that drifts from the server fails here; no value is
copied into this file."""

from __future__ import annotations

import ast
import itertools
import json
import re
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect as ws_connect

from games import services
from games.consumers import TableConsumer
from games.models import Majlis, Match, new_public_id
from realtime import protocol
from realtime.limits import json_depth
from sahrat_site.asgi import application
from tests.tables.helpers import make_table, seat_humans

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
FAIRNESS = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
TABLE_JS = (ROOT / "static" / "js" / "table.js").read_text(encoding="utf-8")
TIMEOUT = 30


@pytest.fixture
def users(django_user_model):
    return [
        django_user_model.objects.create_user(
            f"docs{i}", password="x-Long-pass-123", display_name=f"لاعب {i}"
        )
        for i in range(2)
    ]


@pytest.fixture
def creator(django_user_model):
    return django_user_model.objects.create_user("docshost", password="x-Long-pass-123")


# ------------------------------------------------------------------------------ reading the docs


def section(text: str, heading: str) -> str:
    """The text under a markdown heading (any level), up to the next heading of that level or
    higher."""
    match = re.search(rf"^(#+) {re.escape(heading)}\s*$", text, re.M)
    assert match, f"no heading {heading!r}"
    level = len(match.group(1))
    rest = text[match.end() :]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.M)
    return rest[: end.start()] if end else rest


def table(text: str) -> list[dict[str, str]]:
    """The first markdown table in ``text`` as rows keyed by its header."""
    all_lines = text.splitlines()
    start = next((i for i, ln in enumerate(all_lines) if ln.startswith("|")), len(all_lines))
    lines = list(itertools.takewhile(lambda ln: ln.startswith("|"), all_lines[start:]))
    assert len(lines) >= 3, "no table"
    split = [[c.strip() for c in re.split(r"(?<!\\)\|", ln)[1:-1]] for ln in lines]
    head, rows = split[0], split[2:]
    return [dict(zip(head, row, strict=True)) for row in rows]


def ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def first_int(cell: str) -> int:
    return int(re.search(r"\d+", cell).group())


def limits() -> dict[str, dict[str, str]]:
    return {ticked(r["setting"])[0]: r for r in table(section(PROTOCOL, "Limits"))}


# ------------------------------------------------------------------------------ the socket side


def _cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def _open(user, path: str) -> WebsocketCommunicator:
    cookie = await database_sync_to_async(_cookie)(user)
    comm = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)]
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected, path
    return comm


async def _closed_with(comm: WebsocketCommunicator) -> tuple[list[dict], int]:
    """Frames until the server closes the socket, and the close code."""
    frames = []
    while True:
        out = await comm.receive_output(timeout=TIMEOUT)
        if out["type"] == "websocket.close":
            return frames, out.get("code")
        frames.append(json.loads(out["text"]))


def test_every_limit_in_the_table_is_the_setting_it_names():
    rows = limits()
    for name, row in rows.items():
        assert first_int(row["default"]) == getattr(django_settings, name), name
    # Every socket limit of the settings is in the table, and the chat window as it is written.
    assert {n for n in dir(django_settings) if n.startswith("WS_") and "MAX" in n} <= set(rows)
    window = re.search(r"`CHAT_WINDOW_SECONDS` = (\d+)", rows["CHAT_MAX_IN_WINDOW"]["default"])
    assert int(window.group(1)) == django_settings.CHAT_WINDOW_SECONDS


def test_every_close_code_is_one_the_server_uses():
    rows = table(section(PROTOCOL, "Close codes"))
    documented = {int(r["code"]) for r in rows if r["from"] == "the server"}
    ours = {v for k, v in vars(protocol).items() if k.startswith("CLOSE_")}
    assert ours <= documented
    assert documented - ours == {1000, 1011}  # RFC 6455's normal close and server error
    # Autobahn sends no other code by choice (a proxy's or the network's are theirs).
    assert all(c == 1000 or 3000 <= c <= 4999 for c in ours)


def table_js_constant(name: str) -> str:
    """The value of ``const NAME = …;`` in the site's table page script."""
    found = re.search(rf"^const {name} = (.+?);", TABLE_JS, re.M | re.S)
    assert found, name
    return found.group(1).replace("_", "")


def test_the_close_codes_not_to_retry_are_the_pages_final_codes():
    """What docs/protocol.md tells a client to do after each close, and says the site's page does,
    is what static/js/table.js does: the codes marked not to be retried are its FINAL ones, the
    codes it waits longer before retrying are its FLOOR_MS ones, and its back-off cap and the
    moment it offers a reload are the ones the section states."""
    text = section(PROTOCOL, "Close codes")
    rows = {int(r["code"]): r for r in table(text)}
    final = {int(c) for c in re.findall(r"\d+", table_js_constant("FINAL"))}
    floors = {int(k): int(v) for k, v in re.findall(r"(\d+): (\d+)", table_js_constant("FLOOR_MS"))}
    assert {r["retry"] for r in rows.values()} == {"yes", "no"}
    assert {code for code, r in rows.items() if r["retry"] == "no"} == final
    for code, row in rows.items():
        page = row["what the site's page does"]
        if code in final:
            assert page.startswith("stops") and "reconnect" not in row["what a client should do"]
            continue
        assert page.startswith("reconnects with back-off"), code
        floor = re.search(r"after at least (\d+) seconds", page)
        assert (int(floor.group(1)) * 1000 if floor else None) == floors.get(code), code
    assert set(floors) <= set(rows)
    cap = int(table_js_constant("CAP_MS")) // 1000
    assert f"up to about {cap} seconds" in text
    reload_s = int(table_js_constant("OFFER_RELOAD_MS")) // 1000
    tries = int(table_js_constant("OFFER_RELOAD_TRIES"))
    assert f"after {reload_s} seconds or {tries} failed tries" in " ".join(text.split())


def test_the_error_codes_table_names_the_servers_codes_and_close_codes():
    rows = {ticked(r["code"])[0]: r for r in table(section(PROTOCOL, "Error codes"))}
    closes = {
        "rate_limited": protocol.CLOSE_RATE_LIMITED,
        "too_many_sockets": protocol.CLOSE_TOO_MANY_SOCKETS,
        "unavailable": protocol.CLOSE_TRY_AGAIN,
    }
    for code, row in rows.items():
        assert code == "bad_frame" or code in protocol.ERRORS, code
        said = re.search(r"closed with (\d+)", row["the socket"])
        assert (int(said.group(1)) if said else None) == closes.get(code), code
    assert set(closes) <= set(rows)
    # bad_frame's row states the frame size and the depth; they are the settings'.
    assert str(django_settings.WS_MAX_FRAME) in rows["bad_frame"]["when"]
    assert f"more than {django_settings.WS_MAX_DEPTH} deep" in rows["bad_frame"]["when"]


def test_the_table_refusal_codes_are_exactly_the_services_codes():
    text = section(PROTOCOL, "Refusals at a table")
    listed = text.split("Table codes:", 1)[1].split("A move the rules refuse", 1)[0]
    assert set(ticked(listed)) == set(services.MESSAGES)


def test_the_frames_a_client_sends_are_the_table_sockets_handlers():
    rows = table(section(PROTOCOL, "Frames a client sends"))
    kinds = {json.loads(re.sub(r'<[^>]*>|"…"|…', "0", ticked(r["frame"])[0]))["type"] for r in rows}
    assert kinds == set(TableConsumer.HANDLERS)


def test_the_documented_seed_rule_is_the_services_pattern():
    sit = next(
        r for r in table(section(PROTOCOL, "Frames a client sends")) if '"sit"' in r["frame"]
    )
    rule = next(t for t in ticked(sit["what it does"]) if t.startswith("\\A"))
    assert rule.replace("\\\\", "\\") == services.SEED_PATTERN.pattern


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_both_sockets_say_hello_first_as_documented(creator, users):
    hello = json.loads(ticked(section(PROTOCOL, "Connecting").split("first frame on")[1])[0])
    assert set(hello) == {"type", "user"}
    table_ = await database_sync_to_async(make_table)(creator, "hand", {"players": 2})
    for path in ("/ws/majlis/", f"/ws/table/{table_.public_id}/?format=json"):
        comm = await _open(users[0], path)
        first = await comm.receive_json_from(timeout=TIMEOUT)
        assert first == {"type": hello["type"], "user": users[0].display_name}, path
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_frame_size_and_depth_limits_hold_on_the_server_as_documented(users):
    rows = limits()
    size, depth = (
        first_int(rows["WS_MAX_FRAME"]["default"]),
        first_int(rows["WS_MAX_DEPTH"]["default"]),
    )
    comm = await _open(users[0], "/ws/majlis/")
    await comm.receive_json_from(timeout=TIMEOUT)  # hello

    async def reply(text: str) -> str:
        await comm.send_to(text_data=text)
        return (await comm.receive_json_from(timeout=TIMEOUT))["code"]

    padded = '{"type": "x", "pad": "%s"}'
    filler = size - len(padded % "")
    assert await reply(padded % ("a" * filler)) == "unknown_type"  # exactly the limit: read
    assert await reply(padded % ("a" * (filler + 1))) == "bad_frame"
    # {"type": "x"} is depth 1; each "n": [...] around a list adds one.
    nested = '{"type": "x", "n": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"
    assert json_depth(json.loads(nested)) == depth
    assert await reply(nested) == "unknown_type"
    deeper = '{"type": "x", "n": ' + "[" * depth + "]" * depth + "}"
    assert await reply(deeper) == "bad_frame"
    assert await reply("[" * 100_000) == "bad_frame"  # not even parsed deeply: too long
    assert await reply("[" * (size - 1)) == "bad_frame"  # deeper than the parser goes
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_client_faster_than_the_frame_rate_is_closed_with_the_documented_code(
    users, settings
):
    row = table(section(PROTOCOL, "Error codes"))
    code = int(
        re.search(
            r"closed with (\d+)", next(r for r in row if "rate_limited" in r["code"])["the socket"]
        ).group(1)
    )
    settings.WS_RATE_BURST, settings.WS_RATE_PER_S = 3, 0.001  # the same bucket, smaller
    comm = await _open(users[0], "/ws/majlis/")
    await comm.receive_json_from(timeout=TIMEOUT)
    for n in range(settings.WS_RATE_BURST + 1):  # pings: any frame counts
        await comm.send_json_to({"type": "ping", "seq": n})
    frames, closed = await _closed_with(comm)
    assert [f["type"] for f in frames] == ["pong"] * settings.WS_RATE_BURST + ["error"]
    assert frames[-1]["code"] == "rate_limited" and closed == code


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_chat_length_limit_is_the_documented_one(creator, users):
    limit = first_int(limits()["CHAT_MAX_LENGTH"]["default"])

    def setup():
        t = make_table(creator, "hand", {"players": 2})
        seat_humans(t, users[:2])
        return t

    table_ = await database_sync_to_async(setup)()
    comm = await _open(users[0], f"/ws/table/{table_.public_id}/?format=json")
    await comm.receive_json_from(timeout=TIMEOUT)  # hello
    await comm.receive_json_from(timeout=TIMEOUT)  # state
    # Runs of whitespace count as one space.
    await comm.send_json_to({"type": "chat", "text": "x" * (limit - 2) + " \n\t y"})
    said = await comm.receive_json_from(timeout=TIMEOUT)
    assert said["type"] == "state" and said["chat"][-1]["text"].endswith("x y")
    # Every key the state frame shows in docs/protocol.md is one the server sends, and back.
    block = section(PROTOCOL, "state (server → client)").split("```json", 1)[1].split("```")[0]
    # No seat was given up at this table, so the keys of a leaver's entry are left to
    # tests/tables/test_leaving.py, which gives one up.
    block = re.sub(r'"leavers": \[\{[^]]*\}\]', '"leavers": []', block)
    documented = set(re.findall(r'"(\w+)":', block))
    sent = {"type", *said, *said["table"], *said["you"], *said["match"], *said["chat"][-1]}
    sent |= set(said["table"]["seats"][0]) | set(said["match"]["seeds"][0])
    assert documented == sent
    await comm.send_json_to({"type": "chat", "text": "x" * (limit + 1)})
    refused = await comm.receive_json_from(timeout=TIMEOUT)
    assert refused["code"] == "chat_too_long"
    await comm.disconnect()


# ------------------------------------------------------------------------------ a real Daphne


def _other(base: str, scheme: str | None = None, port: int | None = None) -> str:
    parts = urlsplit(base)
    host = f"{parts.hostname}:{port or parts.port}"
    return urlunsplit((scheme or parts.scheme, host, "", "", ""))


@pytest.mark.django_db(transaction=True)
def test_a_real_server_takes_only_its_own_origin(daphne_server, users):
    """The documented rule over a real handshake (a real Host header): the site's own scheme,
    host and port, nothing else, and an Origin is required."""
    cookie = _cookie(users[0]).decode()
    url = daphne_server.replace("http://", "ws://") + "/ws/majlis/"
    port = urlsplit(daphne_server).port
    with ws_connect(url, origin=daphne_server, additional_headers={"Cookie": cookie}) as ws:
        assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "hello"
    for origin in (
        _other(daphne_server, port=port + 1),
        _other(daphne_server, scheme="https"),
        None,
    ):
        with pytest.raises(InvalidStatus) as refused:
            ws_connect(url, origin=origin, additional_headers={"Cookie": cookie}, open_timeout=10)
        assert refused.value.response.status_code == 403, origin


# ------------------------------------------------------------------------------ the HTTP side


def _csrf(client: Client, path: str) -> str:
    assert client.get(path).status_code == 200
    return client.cookies["csrftoken"].value


def _step(step: str) -> tuple[dict[str, str], str]:
    """A row of the HTTP side's table and the path it names."""
    rows = table(section(PROTOCOL, "The HTTP side: signing up, signing in, making a table"))
    row = next(r for r in rows if r["step"] == step)
    return row, ticked(row["request"])[-1].split()[-1]


@pytest.mark.django_db
def test_a_program_signs_up_signs_in_and_makes_a_table_as_documented():
    """The steps of "The HTTP side", with the fields and paths read from its table, through
    Django's CSRF check as a program meets it."""
    Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})
    client = Client(enforce_csrf_checks=True)
    row, path = _step("sign up")
    names = ticked(row["fields"])
    assert names == ["username", "display_name", "password1", "password2"]
    values = {"username": "prog1", "display_name": "برنامج", "password1": "x-Long-pass-123"}
    values["password2"] = values["password1"]
    token = _csrf(client, path)
    # Without the token, refused.
    assert client.post(path, values).status_code == 403
    done = client.post(path, {**values, "csrfmiddlewaretoken": token})
    assert done.status_code == 302 and "sessionid" in client.cookies
    assert done["Location"] == ticked(row["on success"])[0]

    fresh = Client(enforce_csrf_checks=True)
    row, path = _step("sign in")
    token = _csrf(fresh, path)
    login = dict.fromkeys(ticked(row["fields"]))
    login.update(username="prog1", password=values["password1"])
    # An Origin, when sent, must be the site's own.
    evil = fresh.post(
        path, {**login, "csrfmiddlewaretoken": token}, HTTP_ORIGIN="http://evil.example"
    )
    assert evil.status_code == 403
    throttle = re.search(
        r"The (\d+)th failed attempt .* is itself answered HTTP (\d+) .* for (\d+) minutes",
        row["on success"],
    )
    failures, status, minutes = map(int, throttle.groups())
    assert failures == django_settings.AXES_FAILURE_LIMIT
    assert status == django_settings.AXES_HTTP_RESPONSE_CODE
    assert minutes * 60 == django_settings.AXES_COOLOFF_TIME.total_seconds()
    # As the doc says (issue 57 item 23): the failures before it get the form again, and the
    # Nth failure itself the throttle's status, on another username from the same address.
    guess = Client(enforce_csrf_checks=True)
    guess_token = _csrf(guess, path)
    wrong = {"username": "nobody", "password": "wrong-1", "csrfmiddlewaretoken": guess_token}
    answers = [guess.post(path, wrong).status_code for _ in range(failures)]
    assert answers == [200] * (failures - 1) + [status]
    signed = fresh.post(
        path, {**login, "csrfmiddlewaretoken": token}, HTTP_ORIGIN="http://testserver"
    )
    assert signed.status_code == 302 and "sessionid" in fresh.cookies

    row, path = _step("make a table")
    fields = ticked(row["fields"])
    assert {"game", "players", "rounds", "variant", "table", "stake", "private", "seat"} <= set(
        fields
    )
    rounds = re.search(r"`rounds` \((\d+) to (\d+); (\d+) when left out\)", row["fields"])
    low, high, default = map(int, rounds.groups())
    token = fresh.cookies["csrftoken"].value
    made = fresh.post(
        path,
        {"game": "hand", "players": 2, "rounds": 3, "stake": 0, "csrfmiddlewaretoken": token},
        HTTP_X_CSRFTOKEN=token,
    )
    assert made.status_code == 302 and made["Location"].startswith("/majlis/t/")
    table_id = made["Location"].split("/")[3]
    match = Match.objects.get(table__public_id=table_id)
    assert match.table.options["rounds"] == 3
    plain = fresh.post(path, {"game": "hand", "players": 2, "csrfmiddlewaretoken": token})
    table_id = plain["Location"].split("/")[3]
    assert Match.objects.get(table__public_id=table_id).table.options["rounds"] == default
    for wrong in (low - 1, high + 1):
        refused = fresh.post(
            path, {"game": "hand", "players": 2, "rounds": wrong, "csrfmiddlewaretoken": token}
        )
        assert refused.status_code == 400, wrong
    # Jakaro has no rounds: a field of another game is refused, and nothing is made.
    tables = Match.objects.count()
    jakaro = fresh.post(
        path, {"game": "jakaro", "players": 2, "rounds": 3, "csrfmiddlewaretoken": token}
    )
    assert jakaro.status_code == 400 and Match.objects.count() == tables


# ------------------------------------------------------------------------------ identifiers


@pytest.mark.django_db
def test_the_identifier_and_seed_forms_in_fairness_md_are_the_sites(creator):
    pieces = section(FAIRNESS, "1. The pieces")
    ident = re.search(r"The \*\*identifier\*\* is.*?regular expression `([^`]+)`", pieces, re.S)
    seed = re.search(
        r"The \*\*seeds\*\* the site accepts.*?regular expression `([^`]+)`", pieces, re.S
    )
    ident, seed = ident.group(1), seed.group(1)
    assert seed == services.SEED_PATTERN.pattern
    table_ = make_table(creator, "jakaro", {"players": 2})
    match = Match.objects.get(table=table_)
    for made in (match.public_id, new_public_id(), new_public_id()):
        assert re.match(ident, made), made


# ------------------------------------------------------------------------------ dealing, scenarios


def test_jakaro_packets_start_with_the_player_after_the_dealer_in_every_document():
    from fairness.core import RandomSource
    from games.jakaro import engine

    said = "starting with the player after the dealer"
    rules = (ROOT / "docs" / "rules" / "jakaro.md").read_text(encoding="utf-8")
    assert said in rules and said in section(FAIRNESS, "6.1 The Verify page («تحقق»)")
    for text in (rules, FAIRNESS):
        assert "dealer's left" not in text and "dealer's right" not in rules
    for players in (2, 4):
        rng = RandomSource(bytes(32), "jakaro", "0123456789abcdef", {})
        state = engine.new_match(engine.parse_options({"players": players}), rng)
        deck = rng.deck("deal/1")
        after = (state.dealer + 1) % players
        # One card at a time from deck position 0: the first card is the next seat's.
        for i in range(players):
            assert deck[i] in state.hands[(after + i) % players]
        assert state.turn == after


def test_the_hand_scenario_keys_are_the_ones_the_adapter_reads():
    from fairness.core import RandomSource
    from games.hand import engine
    from games.hand import scenario as hand_scenario

    hand = section((ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8"), "Hand")
    row = next(r for r in table(section(hand, "Position")) if "`seeds`" in r["key"])
    assert ticked(row["key"]) == ["secret", "ident", "seeds"]
    assert "round" not in row["meaning"].split("source")[0]  # the match's source, not a round's
    secret, seeds = "11" * 32, {0: "a" * 32, 1: "b" * 32}
    position = {"deal": True, "options": {"players": 2}, "secret": secret, "ident": "abc"}
    with_seeds, _ = hand_scenario.build_state({**position, "seeds": seeds})
    without, _ = hand_scenario.build_state(position)
    expected = engine.new_match(
        engine.Options(players=2), RandomSource(bytes.fromhex(secret), "hand", "abc", seeds)
    )
    assert with_seeds.round.hands == expected.round.hands != without.round.hands


# ------------------------------------------------------------------------------ the README


def environment_defaults(source: str) -> dict[str, str]:
    """Each ``os.environ.get("NAME", "default")`` of a module whose default is a literal."""
    found = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "os.environ.get":
            if len(node.args) == 2 and all(
                isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args
            ):
                found[node.args[0].value] = node.args[1].value
    return found


def environment_read(source: str) -> set[str]:
    """The environment variables a module reads: the names given as a literal to
    ``os.environ.get``, ``os.getenv``, ``os.environ[...]`` or a helper of the module that takes a
    variable's name first (``_env_list``)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and node.args:
            func = ast.unparse(node.func)
            if func in ("os.environ.get", "os.getenv") or func.startswith("_env"):
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    names.add(arg.value)
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            if isinstance(node.slice, ast.Constant):
                names.add(node.slice.value)
    return names


def test_the_readmes_settings_table_names_every_variable_the_site_reads():
    """README's "Settings (environment)" table lists every variable sahrat_site/settings.py (and
    the rest of sahrat_site/: the process runner, Celery) reads, and only those."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = {
        n for r in table(section(readme, "Settings (environment)")) for n in ticked(r["variable"])
    }
    settings_py = environment_read((ROOT / "sahrat_site" / "settings.py").read_text("utf-8"))
    assert {"SEAT_KEEP_SECONDS", "AWAY_TURN_SECONDS", "DATABASE_URL"} <= settings_py  # it reads
    read = set().union(
        *(environment_read(p.read_text("utf-8")) for p in (ROOT / "sahrat_site").glob("*.py"))
    )
    read.discard("DJANGO_SETTINGS_MODULE")  # set by manage.py / asgi.py, not a setting
    assert sorted(settings_py - listed) == []
    assert sorted(read - listed) == []
    assert sorted(listed - read) == []


def test_the_readmes_settings_defaults_are_the_codes():
    """Where README's table gives a variable's default as a plain value, it is the default the
    code falls back to (a row of several variables gives theirs in the same order)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    defaults = {}
    for path in (ROOT / "sahrat_site").glob("*.py"):
        defaults.update(environment_defaults(path.read_text("utf-8")))
    checked = 0
    for row in table(section(readme, "Settings (environment)")):
        names = ticked(row["variable"])
        cells = [c.strip() for c in row["default"].split(", ")]
        if len(cells) != len(names):
            continue
        for name, cell in zip(names, cells, strict=True):
            plain = re.fullmatch(r"`([^`]*)`", cell)
            if plain is None or name not in defaults:
                continue
            said, code = plain.group(1), defaults[name]
            if re.fullmatch(r"\d+(\.\d+)?", said) and re.fullmatch(r"\d+(\.\d+)?", code):
                assert float(said) == float(code), name
            else:
                assert said == code, name
            checked += 1
    assert checked >= 20  # most rows are checked, not skipped


def test_the_http_refusals_table_holds_what_the_site_answers():
    """Issue 57 item 19: each status language/http.py answers for an unexplained 4xx is in the
    doc's "Refusals over HTTP" table with its code."""
    from language.http import CODES

    rows = table(section(PROTOCOL, "Refusals over HTTP"))
    said = {(c, r["status"]) for r in rows for c in ticked(r["code"])}
    for status, (code, _words) in CODES.items():
        assert (code, str(status)) in said, code


def test_the_docs_name_the_modules_that_exist():
    """Issue 57 item 21: a path the README or docs/ name is a file of the project (a name
    written bare in a README row is one of the folders that row names), and the tables' clock
    is named where it lives."""
    apps = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    missing = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for line in doc.read_text().splitlines():
            quoted = re.findall(r"`([^`]+)`", line)
            folders = [q for q in quoted if q.endswith("/") and (ROOT / q).is_dir()]
            for q in quoted:
                name = q.split()[0] if q.split() else q
                if not re.fullmatch(r"[\w./-]+\.py", name) or name == "manage.py":
                    continue
                if "/" in name and name.split("/")[0] in apps:
                    found = (ROOT / name).exists()
                elif "/" not in name and doc.name == "README.md" and folders:
                    found = any((ROOT / f / name).exists() for f in folders)
                else:
                    continue
                if not found:
                    missing.append(f"{doc.relative_to(ROOT)}: {name}")
    assert missing == []
    assert "`games/services/clock.py`" in (ROOT / "README.md").read_text()


@pytest.mark.django_db
def test_a_program_follows_invites_answers_and_hides_as_documented(django_user_model):
    """Issue 57 item 23: the social steps of "The HTTP side", paths and fields read from its
    table, through the CSRF check as a program meets it."""
    from social import selectors as social_selectors
    from social.models import Invitation

    Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})
    sara, omar = (
        django_user_model.objects.create_user(n, password="x-Long-pass-123")
        for n in ("sara", "omar")
    )
    clients = {}
    for user in (sara, omar):
        clients[user.username] = Client(enforce_csrf_checks=True)
        clients[user.username].force_login(user)
        _csrf(clients[user.username], "/friends/")

    def post(who: str, step: str, values: dict[str, str], **fields) -> object:
        row, path = _step(step)
        for name, value in values.items():
            path = path.replace(f"<{name}>", value)
        assert "<" not in path, path
        assert set(fields) <= set(ticked(row["fields"])), (step, fields)
        token = clients[who].cookies["csrftoken"].value
        return clients[who].post(path, {**fields, "csrfmiddlewaretoken": token})

    for who, other in (("sara", "omar"), ("omar", "sara")):
        done = post(
            who, "follow, unfollow, block, unblock", {"action": "follow", "username": other}
        )
        assert done.status_code == 302 and done["Location"] == "/friends/"
    assert [f["username"] for f in social_selectors.friends_of(sara)] == ["omar"]

    table = make_table(sara, "jakaro", {"players": 2})
    seat_humans(table, [sara])
    sent = post("sara", "invite a friend", {"username": "omar"}, table=table.public_id)
    assert sent.status_code == 302
    invitation = Invitation.objects.get(sender=sara, recipient=omar)
    row, _path = _step("accept or decline an invitation")
    accept = ticked(row["request"])[0].split()[-1].replace("<id>", str(invitation.pk))
    token = clients["omar"].cookies["csrftoken"].value
    taken = clients["omar"].post(accept, {"csrfmiddlewaretoken": token})
    assert taken.status_code == 302
    assert taken["Location"].startswith(f"/majlis/t/{table.public_id}/?sit=1")

    hidden = post("sara", "hide your presence", {}, hide="1")
    assert hidden.status_code == 302 and social_selectors.hides_presence(sara)
    quiet = post("sara", "hide all chat", {}, hide="1")
    assert quiet.status_code == 302
    sara.refresh_from_db()
    assert sara.hide_chat

    private = make_table(sara, "hand", {"players": 2}, private=True)
    row, path = _step("a private table by its code")
    code = private.invite_code.lower().replace("-", " ")  # as said aloud: case and dash free
    found = clients["omar"].get(path.split("?")[0], {"code": code})
    assert found.status_code == 302
    assert found["Location"] == f"/majlis/t/{private.public_id}/?invite={private.invite_token}"
