"""Platform pages that belong to no single app: the home page and the health report."""

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_safe

from sahrat_site import health


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@never_cache
@require_safe  # GET or HEAD: load balancers and monitors use either
def healthz(request: HttpRequest) -> JsonResponse:
    healthy, body = health.report()
    return JsonResponse(body, status=200 if healthy else 503)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A refused form in the page's language and layout (Django's default is bare English)."""
    return render(request, "403_csrf.html", status=403)


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """The site's icon (static/img/icon.svg) for whoever asks /favicon.ico."""
    return HttpResponsePermanentRedirect(static("img/icon.svg"))
