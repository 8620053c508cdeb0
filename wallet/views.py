"""The wallet page: balance and history (htmx asks for the next page of history only)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from wallet import selectors


@login_required
@require_safe
@vary_on_headers("HX-Request")
def wallet(request: HttpRequest) -> HttpResponse:
    balance, page = selectors.history(request.user, request.GET.get("page") or 1)
    ctx = {"balance": balance, "page": page}
    if request.htmx:
        return render(request, "wallet/_history.html", ctx)
    return render(request, "wallet/wallet.html", ctx)
