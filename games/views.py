"""Pages of the majlis: the lobby, creating a table, and a table. Thin: check who asks, call one
service or selector, render (games/rendering.py turns a table's state into HTML)."""

from __future__ import annotations

from secrets import compare_digest

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

import games
from games import frames, rendering, selectors, services, viewers
from games.forms import GAME_CHOICES, QuickPlayForm, TableForm, game_options
from games.models import Table, normal_code
from games.services import TableError
from language import digits
from language import http as api
from standing.selectors import reputation_of
from wallet.services import balance_of


def _shown_game(request: HttpRequest) -> str | None:
    """The game the lobby is filtered by (?game=), or None for every game."""
    game = request.GET.get("game")
    return game if game in games.NAMES else None


def _with_free_seats(group: dict, reputation: int) -> dict:
    """A game's rows with their free seats counted, the tables one can sit at first: a full
    table (playing, or between two matches) is listed after them, never as waiting, and so is
    one whose minimum reputation is above the viewer's (``barred``: the row says why)."""
    for row in group["tables"]:
        row["empty"] = sum(s["empty"] for s in row["seats"])
        row["barred"] = row["min_reputation"] > reputation
        row["open"] = not row["playing"] and row["empty"] > 0 and not row["barred"]
        row["people"] = sum(not s["empty"] and not s["bot"] for s in row["seats"])
    # Open tables where people wait for company first (the quickest game), then open ones with
    # bots only, then full ones; stable: newest first within each.
    group["tables"].sort(key=lambda row: (not row["open"], row["people"] == 0))
    return group


# The majlis itself lists this many tables of every game, the first as ordered above, each
# with its game's name; each game's filter («هاند (٨)») shows all of that game's. So it stays
# about one phone screen however many tables are open (issue 57, item 14; docs/social.md,
# "The lobby").
LOBBY_TABLES_SHOWN = 3


def _first_tables(groups: list[dict], newest: dict[str, int]) -> list[dict]:
    """The majlis's one list: the first LOBBY_TABLES_SHOWN tables of every game together, in
    the order above, newest first within each kind (``newest``: id -> place in the list
    ``open_tables`` reads, newest first)."""
    rows = [row for g in groups for row in g["tables"]]
    rows.sort(key=lambda row: (not row["open"], row["people"] == 0, newest[row["id"]]))
    for row in rows:
        row["game_name"] = rendering.faces.game_name(row["game"])
    return [{"game": "", "name": "", "tables": rows[:LOBBY_TABLES_SHOWN], "mixed": True}]


def _lobby_context(
    request: HttpRequest,
    form: TableForm | None = None,
    quick: QuickPlayForm | None = None,
    *,
    creating: bool = False,
    no_seat: bool = False,
) -> dict:
    game = _shown_game(request)
    initial = {"game": game} if game else {}
    # A visitor not signed in is shown every table as open: signing in comes before sitting.
    reputation = reputation_of(request.user) if request.user.is_authenticated else 100
    tables = selectors.open_tables_of(game)
    groups = [
        _with_free_seats(g, reputation)
        for g in rendering.lobby_groups(tables)
        if game is None or g["game"] == game
    ]
    counts = {g["game"]: len(g["tables"]) for g in groups}
    if game is None:  # the majlis itself: the first tables; ?game= shows all of one game
        groups = _first_tables(groups, {t.public_id: i for i, t in enumerate(tables)})
    return {
        "groups": groups,
        "form": form or TableForm(initial=initial),
        "quick": quick or QuickPlayForm(initial=initial),
        "game": game,
        # Each game with how many tables it has open (the majlis itself shows only the first).
        "filters": [(value, name, counts.get(value, 0)) for value, name in GAME_CHOICES],
        # The create form starts open when it has something to say (errors, or no seat fitted).
        "creating": creating,
        "no_seat": no_seat,
    }


@require_safe
@vary_on_headers("HX-Request")  # the same URL gives the page or, to htmx, only the list
def lobby(request: HttpRequest) -> HttpResponse:
    """The majlis (?game= shows one game's tables); an htmx request (the live refresh) gets
    only the list of tables."""
    if request.htmx:
        return render(request, "games/_tables.html", _lobby_context(request))
    return render(request, "games/lobby.html", _lobby_context(request))


def _table_url(table: Table, seat: int | None = None) -> str:
    """The table's page; ``seat``: the page sits its viewer there as it opens (static/js/
    autosit.js), with a seed their browser makes for the commitment it shows, like a tap on
    "Sit here" (the seed must come from the browser, so the server cannot sit them itself)."""
    url = reverse("games:table", args=[table.public_id])
    query = {}
    if table.private:
        query["invite"] = table.invite_token
    if seat is not None:
        query["sit"] = seat
    return f"{url}?{urlencode(query)}" if query else url


@login_required
@require_safe
def join_by_code(request: HttpRequest) -> HttpResponse:
    """A private table's short code, typed in the lobby (said aloud or sent by a friend): its
    page, as its invite link would open it. A code that fits no table says so in the lobby."""
    code = normal_code(request.GET.get("code", ""))
    found = Table.objects.filter(invite_code=code).first() if code else None
    if found is None:
        words = _("No table has that code. Check it with your friend.")
        if api.wants_json(request):
            return api.refuse(request, "no_such_table", words, 404)
        context = _lobby_context(request)
        context["code_error"] = words
        return render(request, "games/lobby.html", context, status=404)
    return redirect(_table_url(found))


@login_required
@require_safe
def quick_play(request: HttpRequest) -> HttpResponse:
    """The first open seat that fits the game, mode and stake asked for; when none does, the
    majlis with the create form filled in for that game and mode."""
    quick = QuickPlayForm(request.GET)
    if not quick.is_valid():
        return render(request, "games/lobby.html", _lobby_context(request, quick=quick), status=400)
    game = quick.cleaned_data["game"]
    players, partners = quick.wanted()
    found = selectors.quick_seat(
        request.user,
        game=game,
        players=players,
        partners=partners,
        stake=quick.cleaned_data["stake"],
    )
    if found is not None:
        table, seat = found
        return redirect(_table_url(table, seat))
    initial: dict = {"game": game, "stake": quick.cleaned_data["stake"]}
    if players is not None:
        initial.update(
            players=players, partners=bool(partners) and "partners" in game_options(game)
        )
    form = TableForm(initial=initial)
    return render(
        request,
        "games/lobby.html",
        _lobby_context(request, form, quick, creating=True, no_seat=True),
    )


@login_required
@require_POST
def table_new(request: HttpRequest) -> HttpResponse:
    form = TableForm(request.POST)
    code = "invalid_table"
    if form.is_valid():
        try:
            table = services.table_create(
                user=request.user,
                game=form.cleaned_data["game"],
                options=form.options(),
                private=form.cleaned_data["private"],
                stake=form.cleaned_data["stake"],
                min_reputation=form.cleaned_data["min_reputation"],
                bot_level=form.cleaned_data.get("bot_level") or "normal",
            )
        except TableError as exc:
            form.add_error(None, exc.message(get_language() or "ar"))
            code = exc.code
        else:
            return redirect(_table_url(table, form.cleaned_data.get("seat")))
    page = render(
        request, "games/lobby.html", _lobby_context(request, form, creating=True), status=400
    )
    return api.form_refused(page, form, code)


# One tap each; shown in the page's language (the Arabic ones are what Gulf players say).
QUICK_PHRASES = (
    gettext_noop("Peace be upon you"),
    gettext_noop("Good luck"),
    gettext_noop("Well played!"),
    gettext_noop("Your turn"),
    gettext_noop("One moment"),
    gettext_noop("Thank you"),
)


@login_required
@require_safe
def table(request: HttpRequest, table_id: str) -> HttpResponse:
    """A table, drawn for the viewer from ``selectors.table_state``, then kept live by the table
    socket's HTML fragments. A private table needs a seat or the invite link."""
    found = Table.objects.filter(public_id=table_id).first()
    if found is None:
        raise Http404
    invite = request.GET.get("invite", "")
    invited = bool(invite) and compare_digest(invite, found.invite_token)
    if not selectors.can_watch(found, request.user, invited):
        raise Http404
    state, shared = selectors.table_states(found, request.user)
    # A watcher who sees this table late gets no game on the page itself (it would be the game
    # as it is now); their socket brings it WATCH_DELAY_S later, and every state after it.
    watch_delay = viewers.watched_late(state) and state["match"]["status"] == "playing"
    if watch_delay:
        state, shared = {**state, "view": None}, {**shared, "view": None}
    ctx = rendering.table_context(state)
    # The live table as the socket draws it: the shared part, this viewer's own in its slots.
    ctx["live"] = frames.page_live(state, shared, get_language(), digits.current())
    ctx["chat_html"] = frames.chat_part(state, get_language(), digits.current(), oob=False)
    ws_url = f"/ws/table/{found.public_id}/"
    if invited:
        ws_url += "?" + urlencode({"invite": invite})
    invite_url = whatsapp = None
    if found.private and (state["table"]["creator"] or state["you"]["seat"] is not None):
        path = reverse("games:table", args=[found.public_id])
        invite_url = request.build_absolute_uri(
            f"{path}?{urlencode({'invite': found.invite_token})}"
        )
        # Where the browser has no share sheet: a WhatsApp message with the code and the link.
        words = _("Join my table at Sahrat. Code: %(code)s") % {"code": found.invite_code}
        whatsapp = "https://wa.me/?" + urlencode({"text": f"{words}\n{invite_url}"})
    engine = games.get(found.game)
    ctx.update(
        ws_url=ws_url,
        invite_url=invite_url,
        invite_code=found.invite_code if invite_url else None,
        # Who may invite friends (templates/social/_invite_friends.html): a player seated at
        # the waiting table, or its creator.
        can_invite=found.status == Table.Status.OPEN
        and (state["table"]["creator"] or state["you"]["seat"] is not None),
        table_id=found.public_id,
        # The "Players" sheet (social/views.py table_players), with the invite of a private
        # table's watcher.
        players_url=reverse("social:table_players", args=[found.public_id])
        + (f"?{urlencode({'invite': invite})}" if invited else ""),
        watch_delay=round(settings.WATCH_DELAY_S) if watch_delay else None,
        report_invite=invite if invited else "",  # a private table's watcher reports a line
        whatsapp=whatsapp,
        partners=any(len(unit) > 1 for unit in engine.teams(engine.parse_options(found.options))),
        quick_phrases=[_(p) for p in QUICK_PHRASES],
        coins=balance_of(request.user),  # the thin bar's coins
    )
    return render(request, "games/table.html", ctx)
