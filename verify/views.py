"""The Verify pages («تحقق»), public and without login. Thin: read the request, ask
verify/selectors.py (or fairness/core.py for the paste form), render. A bad id, secret or
paste gets a clear message and a 4xx, never a 500."""

from __future__ import annotations

import json

from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

import fairness.core as fairness
from games import faces, frames
from games.faces import common
from language import http
from language.digits import digits
from verify import audit, selectors

MAX_PASTE = 20_000  # characters of a pasted secret/seeds form
MAX_EXPORT = 2_000_000  # characters of a pasted export
MAX_DEALS = 12


def _page_number(request: HttpRequest) -> int:
    try:
        return max(1, min(int(request.GET.get("page", "1")), 100_000))
    except ValueError:
        return 1


@require_safe
def log(request: HttpRequest) -> HttpResponse:
    """The commitment log: every match ever created, with its state."""
    mine = request.GET.get("mine") == "1" and request.user.is_authenticated
    data = selectors.commitment_log(
        query=request.GET.get("q", ""), user=request.user, mine=mine, page=_page_number(request)
    )
    for row in data["rows"]:
        row["game_name"] = faces.game_name(row["game"])
    return render(request, "verify/log.html", {"log": data})


def _not_found(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "verify/error.html",
        {"message": _("No match has this id. Check the link, or search the log.")},
        status=404,
    )


@require_safe
def match(request: HttpRequest, match_id: str) -> HttpResponse:
    found = selectors.find_match(match_id)
    if found is None:
        return _not_found(request)
    data = selectors.match_page(found)
    _script, digest = selectors.standalone_script()
    data.update(
        {
            "game_name": faces.game_name(found.game),
            "options_words": common.options_words(found.game, found.options),
            "script_sha256": digest,
            "seeds_key": common.SEEDS_KEY,
        }
    )
    # The action log in words beside the canonical text an auditor compares (seats by number:
    # no seat list, so every seat is «المقعد N»).
    seat_of = {}
    for a in data.get("actions") or []:
        a.words = faces.action_words(found.game, a.action, a.seat, [])
        seat_of[a.seq] = a.seat
    for event in data["events"]:
        event["label"] = _event_label(event)
        event["words"] = common.event_words(event["purpose"])
        if event.get("action"):
            event["action_words"] = faces.action_words(
                found.game, event["action"], seat_of.get(event["seq"]), []
            )
    return render(request, "verify/match.html", data)


def _event_label(event: dict) -> str:
    if event["type"] == "deal":
        return _("Deal (%(p)s)") % {"p": event["purpose"]}
    if event["type"] == "reshuffle":
        return _("Fire pile reshuffled into a new stock (%(p)s)") % {"p": event["purpose"]}
    return _("Ten burn (%(p)s)") % {"p": event["purpose"]}


def _export_refused(code: str, message: str, status: int) -> JsonResponse:
    body = {**http.error_body(code, message), "error": message}
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})


@require_safe
def export(request: HttpRequest, match_id: str) -> HttpResponse:
    found = selectors.find_match(match_id)
    # Refusals in the HTTP side's one shape (docs/protocol.md), "error" kept for older readers.
    if found is None:
        return _export_refused("no_such_match", _("No match has this id."), 404)
    try:
        data = selectors.match_export(found)
    except selectors.NotRevealed:
        words = _("This match is not over: its secret is not revealed yet.")
        return _export_refused("not_revealed", words, 403)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    if request.GET.get("download") == "1":
        response["Content-Disposition"] = f'attachment; filename="sahrat-{found.public_id}.json"'
    return response


@require_safe
def script(request: HttpRequest) -> HttpResponse:
    """The standalone verifier, as a download."""
    return FileResponse(
        open(selectors.STANDALONE, "rb"),  # FileResponse closes it
        as_attachment=True,
        filename="sahrat_verify.py",
        content_type="text/x-python",
    )


@require_safe
@vary_on_headers("HX-Request")
def replay(request: HttpRequest, match_id: str) -> HttpResponse:
    """The full replay, one action at a time, every seat's cards shown (the match is over)."""
    found = selectors.find_match(match_id)
    if found is None:
        return _not_found(request)
    if not found.revealed:
        return render(
            request,
            "verify/error.html",
            {"message": _("This match is not over: its replay opens when its secret is revealed.")},
            status=403,
        )
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    data = selectors.replay_step(found, step)
    ctx = _replay_context(found, data)
    template = "verify/_replay_step.html" if request.htmx else "verify/replay.html"
    return render(request, template, ctx)


def _replay_context(found, data: dict) -> dict:
    """Each seat's view through the game's own face (games/faces/<game>.py and its template,
    templates/jinja2/games/views/<game>.html, as the table draws it), the spectator's for the shared
    part."""
    players = len(data["views"])
    seats = [
        {
            "number": n,
            "label": data["names"].get(n) or _("seat %(n)s") % {"n": digits(n + 1)},
            "empty": False,
        }
        for n in range(players)
    ]
    face = faces.get(found.game)
    table_view = face.table_view(data["spectator"], seats, None)
    own_view = face.own_view(data["spectator"], seats, None)
    own_view["moves"] = []
    hands = []
    for n, view in enumerate(data["views"]):
        hands.append(
            {
                "seat": n,
                "name": seats[n]["label"],
                "cards": [common.card_item(c) for c in view.get("hand") or []],
                "turn": data["spectator"].get("turn") == n,
            }
        )
    action = data["action"]
    action_words = None
    if action is not None:
        action_words = faces.action_words(found.game, action.action, action.seat, seats)
    ctx = {
        "match": found,
        "game_name": faces.game_name(found.game),
        "step": data["step"],
        "last": data["last"],
        "prev": max(0, data["step"] - 1),
        "next": min(data["last"], data["step"] + 1),
        "action": action,
        "action_words": action_words,
        "actor": seats[action.seat]["label"] if action and action.seat is not None else None,
        "game_stylesheet": face.STYLESHEET,
        "hands": hands,
        "events": [{**e, "words": common.event_words(e["purpose"])} for e in data["events"]],
    }
    # The part a seat's page draws for itself, drawn here for no seat, in the shared part's slot
    # as the table page has it (games/frames.py).
    ctx["own"] = {
        "game": {
            slot: frames.draw_template(template, {**ctx, "g": own_view})
            for slot, template in face.OWN_TEMPLATES.items()
        }
    }
    # The game as the table draws it (a frame's template: templates/jinja2/).
    ctx["game_html"] = frames.draw_template(face.TEMPLATE, {**ctx, "g": table_view})
    return ctx


def _paste_error(request: HttpRequest, message: str, form: dict) -> HttpResponse:
    return render(request, "verify/paste.html", {"error": message, "form": form}, status=400)


@require_http_methods(["GET", "POST"])
def paste(request: HttpRequest) -> HttpResponse:
    """A secret, seeds and an id give the deals, without any server record; or a whole export
    pasted is checked by the server's own code."""
    if request.method == "GET":
        return render(request, "verify/paste.html", {"form": {"game": "hand", "rounds": "1"}})
    if request.POST.get("export", "").strip():
        return _check_export(request)
    form = {k: request.POST.get(k, "")[:MAX_PASTE] for k in ("game", "secret", "commitment", "id")}
    form["seeds"] = request.POST.get("seeds", "")[:MAX_PASTE]
    form["rounds"] = request.POST.get("rounds", "1")[:4]
    if any(len(request.POST.get(k, "")) > MAX_PASTE for k in request.POST):
        return _paste_error(request, _("That paste is too long."), form)
    try:
        game = fairness.check_game(form["game"])
        secret = fairness.parse_secret(form["secret"])
        ident = fairness.check_token(form["id"].strip(), "the identifier")
        seeds = _parse_seeds(form["seeds"])
        commitment_ok = None
        if form["commitment"].strip():
            commitment_ok = fairness.matches_commitment(secret, form["commitment"])
        rounds = int(form["rounds"]) if form["rounds"].isdigit() else 0
        if not 1 <= rounds <= MAX_DEALS:
            raise fairness.FairnessError("rounds")
    except fairness.FairnessError:
        return _paste_error(
            request,
            _(
                "Check what you pasted: the secret is 64 hexadecimal characters, the id and each "
                "seed are 1–128 letters, digits or _ . : / -, seeds are written SEAT=SEED one a "
                "line, and 1 to 12 deals may be asked."
            ),
            form,
        )
    source = fairness.RandomSource(secret, game, ident, seeds)
    deals = [
        {"purpose": f"deal/{k}", "cards": source.deck(f"deal/{k}")} for k in range(1, rounds + 1)
    ]
    ctx = {
        "form": form,
        "deals": deals,
        "game": game,
        "seeds": seeds,
        "seeds_json": json.dumps({str(k): v for k, v in seeds.items()}),
        "commitment_ok": commitment_ok,
    }
    return render(request, "verify/paste.html", ctx)


def _parse_seeds(text: str) -> dict[int, str]:
    seeds: dict[int, str] = {}
    for line in text.replace(",", "\n").splitlines():
        line = line.strip()
        if not line:
            continue
        seat, sep, seed = line.partition("=")
        if not sep or not seat.strip().isdigit() or len(seat.strip()) > 3:
            raise fairness.FairnessError("seed line")
        n = int(seat)
        if n in seeds:
            raise fairness.FairnessError("two seeds")
        seeds[n] = fairness.check_token(seed.strip(), "a seed")
    return seeds


def _check_export(request: HttpRequest) -> HttpResponse:
    text = request.POST.get("export", "")
    form = {"game": "hand", "rounds": "1", "export": text[:MAX_EXPORT]}
    if len(text) > MAX_EXPORT:
        return _paste_error(request, _("That paste is too long."), form)
    try:
        problems = audit.check_export(json.loads(text))
    except (ValueError, fairness.FairnessError) as exc:
        # json errors, ExportError and FairnessError are all ValueErrors.
        detail = str(exc) if isinstance(exc, audit.ExportError | fairness.FairnessError) else ""
        return _paste_error(
            request,
            _("This is not a readable Sahrat match export.") + (f" ({detail})" if detail else ""),
            form,
        )
    return render(
        request,
        "verify/paste.html",
        {"form": form, "export_checked": True, "problems": problems},
    )
