"""Pages of the majlis: the lobby, creating a table, and a table. Thin: check who asks, call one
service or selector, render (games/rendering.py turns a table's state into HTML)."""

from __future__ import annotations

from secrets import compare_digest

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
from games import rendering, selectors, services
from games.forms import TableForm
from games.models import Table
from games.services import TableError


def _lobby_context(form: TableForm | None = None) -> dict:
    return {
        "groups": rendering.lobby_groups(selectors.open_tables()),
        "form": form or TableForm(),
    }


@require_safe
@vary_on_headers("HX-Request")  # the same URL gives the page or, to htmx, only the list
def lobby(request: HttpRequest) -> HttpResponse:
    """The majlis; an htmx request (the live refresh) gets only the list of tables."""
    if request.htmx:
        return render(request, "games/_tables.html", _lobby_context())
    return render(request, "games/lobby.html", _lobby_context())


@login_required
@require_POST
def table_new(request: HttpRequest) -> HttpResponse:
    form = TableForm(request.POST)
    if form.is_valid():
        try:
            table = services.table_create(
                user=request.user,
                game=form.cleaned_data["game"],
                options=form.options(),
                private=form.cleaned_data["private"],
                stake=form.cleaned_data["stake"],
            )
        except TableError as exc:
            form.add_error(None, exc.message(get_language() or "ar"))
        else:
            url = reverse("games:table", args=[table.public_id])
            if table.private:
                url += "?" + urlencode({"invite": table.invite_token})
            return redirect(url)
    return render(request, "games/lobby.html", _lobby_context(form), status=400)


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
    state = selectors.table_state(found, request.user)
    ctx = rendering.table_context(state)
    ws_url = f"/ws/table/{found.public_id}/"
    if invited:
        ws_url += "?" + urlencode({"invite": invite})
    invite_url = None
    if found.private and (state["table"]["creator"] or state["you"]["seat"] is not None):
        path = reverse("games:table", args=[found.public_id])
        invite_url = request.build_absolute_uri(
            f"{path}?{urlencode({'invite': found.invite_token})}"
        )
    engine = games.get(found.game)
    ctx.update(
        ws_url=ws_url,
        invite_url=invite_url,
        partners=any(len(unit) > 1 for unit in engine.teams(engine.parse_options(found.options))),
        quick_phrases=[_(p) for p in QUICK_PHRASES],
    )
    return render(request, "games/table.html", ctx)
