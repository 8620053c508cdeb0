"""The friends page and the follow / block buttons (player pages, tables). Thin: the writes are
social/services.py, the reads social/selectors.py."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games.models import Seat, Table
from games.selectors import can_watch
from language import http as api
from social import invitations, selectors, services
from social.errors import SocialError

# A refusal's status for a program asking for JSON (docs/protocol.md); the rest are 400.
STATUS = {"no_such_player": 404, "no_such_invitation": 404}


def _refused(request: HttpRequest, exc: SocialError, page: HttpResponse) -> HttpResponse:
    """A refusal in the player's language: for a page, shown by django.contrib.messages on the
    page ``page`` leads to; for a program asking for JSON, the HTTP side's JSON error."""
    words = exc.message(get_language() or "ar")
    if api.wants_json(request):
        return api.refuse(request, exc.code, words, STATUS.get(exc.code, 400))
    messages.error(request, words)
    return page


ACTIONS = {
    "follow": services.follow,
    "unfollow": services.unfollow,
    "block": services.block,
    "unblock": services.unblock,
}


@login_required
@require_safe
def friends(request: HttpRequest) -> HttpResponse:
    """Your friends with where they are (live: the list reloads when the lobby socket says a
    friend's presence changed), those you follow, those you blocked, and hiding your own."""
    context = {
        "invitations": invitations.invitations_of(request.user),
        "my_table": selectors.waiting_table_of(request.user),
        "friends": selectors.friends_of(request.user),
        "following": selectors.following_only(request.user),
        "blocked": selectors.blocked_by_me(request.user),
        "hidden": selectors.hides_presence(request.user),
    }
    if request.htmx:
        return render(request, "social/_friends_list.html", context)
    return render(request, "social/friends.html", context)


@login_required
@require_POST
def act(request: HttpRequest, action: str, username: str) -> HttpResponse:
    """Follow, unfollow, block or unblock ``username``; back to the page the button was on."""
    do = ACTIONS.get(action)
    if do is None:
        return HttpResponse(status=404)
    error = None
    try:
        do(user=request.user, username=username)
    except SocialError as exc:
        if api.wants_json(request):
            return _refused(request, exc, HttpResponse())
        error = exc.message(get_language() or "ar")
    # From a table's "Players" sheet (htmx): the sheet again, with the error in it if any.
    if request.htmx and request.POST.get("table"):
        return _players_sheet(request, request.POST["table"], error)
    if error:
        messages.error(request, error)
    back = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = "social:friends"
    return redirect(back)


@login_required
@require_safe
def table_players(request: HttpRequest, table_id: str) -> HttpResponse:
    """The table's "Players" sheet: who sits there, to follow or block from the table."""
    return _players_sheet(request, table_id, None)


def _players_sheet(request: HttpRequest, table_id: str, error: str | None) -> HttpResponse:
    table = get_object_or_404(Table, public_id=table_id)
    # A private table's players are for those who may watch it (its link is its invite).
    invite = request.GET.get("invite") or request.POST.get("invite") or ""
    if not can_watch(table, request.user, bool(invite) and invite == table.invite_token):
        return HttpResponse(status=404)
    context = {
        "players": selectors.players_at(request.user, table),
        "table_id": table.public_id,
        "invite": invite,
        "error": error,
    }
    return render(request, "social/_table_players.html", context)


@login_required
@require_POST
def presence(request: HttpRequest) -> HttpResponse:
    """Hide (hide=1) or show your presence to your friends."""
    services.set_hide_presence(user=request.user, hide=request.POST.get("hide") == "1")
    return redirect("social:friends")


def _back(request: HttpRequest) -> str:
    back = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        return reverse("social:friends")
    return back


@login_required
@require_POST
def invite(request: HttpRequest, username: str) -> HttpResponse:
    """Invite a friend to a table (``table`` in the form): from the table or the friends list."""
    try:
        invitations.invite(
            user=request.user, username=username, table_id=request.POST.get("table", "")
        )
    except SocialError as exc:
        # Back where the button was (the table, the friends page), which shows why.
        return _refused(request, exc, redirect(_back(request)))
    messages.success(request, _("Invitation sent."))
    return redirect(_back(request))


@login_required
@require_POST
def answer(request: HttpRequest, invitation_id: str, choice: str) -> HttpResponse:
    """Accept (to a free seat at the table: the page sits you there as it opens, with your
    browser's seed) or decline an invitation."""
    try:
        found = invitations.answer(
            user=request.user, invitation_id=invitation_id, accept=choice == "accept"
        )
    except SocialError as exc:
        return _refused(request, exc, redirect("social:friends"))
    if choice != "accept":
        return redirect("social:friends")
    table = found.table
    free = (
        Seat.objects.filter(table=table, user__isnull=True, is_bot=False)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    query = {"sit": free} if free is not None else {}
    if table.private:
        query["invite"] = table.invite_token
    return redirect(f"{reverse('games:table', args=[table.public_id])}?{urlencode(query)}")
