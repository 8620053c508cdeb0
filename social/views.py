"""The friends page and the follow / block buttons (player pages, tables). Thin: the writes are
social/services.py, the reads social/selectors.py."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.views.decorators.http import require_POST, require_safe

from social import selectors, services
from social.errors import SocialError

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
    try:
        do(user=request.user, username=username)
    except SocialError as exc:
        messages.error(request, exc.message(get_language() or "ar"))
    back = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = "social:friends"
    return redirect(back)


@login_required
@require_POST
def presence(request: HttpRequest) -> HttpResponse:
    """Hide (hide=1) or show your presence to your friends."""
    services.set_hide_presence(user=request.user, hide=request.POST.get("hide") == "1")
    return redirect("social:friends")
