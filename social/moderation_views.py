"""The players' side of moderation: mute someone at a table, report someone (from the table's
Players sheet or their page), the panic switch. Thin: the writes are social/moderation.py."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.models import Table
from games.selectors import can_watch
from language.errors import PlayerError
from moderation.models import Report
from social import moderation as services


class ReportForm(forms.Form):
    reason = forms.ChoiceField(label=gettext_lazy("Why"), choices=Report.Reason.choices)
    words = forms.CharField(
        label=gettext_lazy("In your words (optional)"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


def _back(request: HttpRequest, fallback: str) -> str:
    back = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        return back
    return fallback


def _players_sheet(table_id: str, invite: str) -> str:
    """The table's Players sheet (social), where the mute and report buttons are."""
    url = reverse("social:table_players", args=[table_id])
    return f"{url}?{urlencode({'invite': invite})}" if invite else url


def _table(request: HttpRequest, table_id: str) -> Table:
    table = get_object_or_404(Table, public_id=table_id)
    invite = request.POST.get("invite") or request.GET.get("invite") or ""
    if not can_watch(table, request.user, bool(invite) and invite == table.invite_token):
        raise Table.DoesNotExist  # a private table's people are for those who may watch it
    return table


@login_required
@require_POST
def mute(request: HttpRequest, action: str, username: str) -> HttpResponse:
    """Mute or unmute ``username`` at the table named by the form; back to its Players sheet
    (htmx follows the redirect and swaps the sheet in) or, without scripts, to the table."""
    if action not in ("mute", "unmute"):
        return HttpResponse(status=404)
    table_id, invite = request.POST.get("table", ""), request.POST.get("invite", "")
    try:
        table = _table(request, table_id)
    except Table.DoesNotExist:
        return HttpResponse(status=404)
    do = services.mute if action == "mute" else services.unmute
    try:
        do(user=request.user, username=username, table_id=table.public_id)
    except PlayerError as exc:  # no such player, or oneself
        messages.error(request, exc.message(get_language() or "ar"))
    if request.htmx:
        return redirect(_players_sheet(table.public_id, invite))
    return redirect(_back(request, reverse("games:table", args=[table.public_id])))


@login_required
@require_http_methods(["GET", "POST"])
def report(request: HttpRequest, username: str) -> HttpResponse:
    """Report ``username``: a reason and optional words. With ``table`` (from its Players sheet)
    the table's chat is kept with the report; from the player's page, their own last lines."""
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    table_id = request.POST.get("table") or request.GET.get("table") or ""
    invite = request.POST.get("invite") or request.GET.get("invite") or ""
    if table_id:
        try:
            _table(request, table_id)
        except Table.DoesNotExist:
            return HttpResponse(status=404)
    form = ReportForm(request.POST or None)
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            services.report(
                user=request.user,
                username=username,
                reason=form.cleaned_data["reason"],
                words=form.cleaned_data["words"],
                table_id=table_id,
            )
        except PlayerError as exc:
            error = exc.message(get_language() or "ar")
        else:
            done = _("Thank you. The staff will read the chat and decide.")
            if request.htmx:
                return render(request, "moderation/_reported.html", {"done": done})
            messages.success(request, done)
            return redirect(_back(request, reverse("accounts:player", args=[username])))
    context = {
        "form": form,
        "player": player,
        "table_id": table_id,
        "invite": invite,
        "error": error,
        "next": _back(request, ""),
    }
    template = "moderation/_report_form.html" if request.htmx else "moderation/report.html"
    return render(request, template, context, status=400 if error else 200)


@login_required
@require_http_methods(["GET", "POST"])
def report_line(request: HttpRequest, line_id: int) -> HttpResponse:
    """Report one chat line (its menu in a table's chat): the line as the reporter read it, a
    reason and optional words; the line and a few either side of it, as typed, go to the
    staff. Opened in the chat sheet (htmx) or as a page."""
    invite = request.POST.get("invite") or request.GET.get("invite") or ""
    lang = get_language() or "ar"
    try:
        line = services.reportable_line(user=request.user, line_id=line_id, invite=invite)
    except PlayerError as exc:
        return render(request, "moderation/_reported.html", {"done": exc.message(lang)}, status=404)
    table_url = reverse("games:table", args=[line.table.public_id])
    form = ReportForm(request.POST or None)
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            services.report(
                user=request.user,
                username=line.user.username,
                reason=form.cleaned_data["reason"],
                words=form.cleaned_data["words"],
                line=line,
            )
        except PlayerError as exc:
            error = exc.message(lang)
        else:
            done = _("Thank you. The staff will read the line and the chat around it.")
            if request.htmx:
                return render(request, "moderation/_reported.html", {"done": done})
            messages.success(request, done)
            return redirect(_back(request, table_url))
    context = {"form": form, "line": line, "invite": invite, "error": error, "back": table_url}
    template = (
        "moderation/_report_line_form.html" if request.htmx else "moderation/report_line.html"
    )
    return render(request, template, context, status=400 if error else 200)


@login_required
@require_POST
def hide_chat(request: HttpRequest) -> HttpResponse:
    """The panic switch: hide=1 hides every chat for the player, hide=0 brings it back."""
    hide = request.POST.get("hide") == "1"
    services.set_hide_chat(user=request.user, hide=hide)
    if request.htmx:
        return HttpResponse(status=204)  # the table's socket draws the chat again
    if not request.POST.get("next"):
        messages.success(request, _("All chat is hidden.") if hide else _("Chat is shown again."))
    return redirect(_back(request, reverse("accounts:profile")))
