"""Pages of the majlis (lobby). Thin: render what the selectors give."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html")
