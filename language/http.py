"""Refusals for a program: every 4xx the HTTP side answers is one JSON error when the client
asks for JSON (``Accept: application/json``), in the same shape as the sockets' error frame:
``{"type": "error", "code": "<code>", "message": "<words>"}`` (docs/protocol.md, "Refusals over
HTTP"), with ``"fields": {"<field>": ["<words>", …]}`` when a form's fields were refused.

Pages (browsers, which ask for HTML) are answered as before. A view that knows why it refused
says so with ``refuse(request, code, message)`` or marks a refused form with
``form_refused(response, form, code)``; any other 4xx gets its status's code (CODES) and words.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import resolve_url
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

# The code and words of a 4xx no view explained (docs/protocol.md lists them).
CODES: dict[int, tuple[str, str]] = {
    400: ("bad_request", gettext_noop("The request was not understood.")),
    401: ("not_signed_in", gettext_noop("Sign in first.")),
    403: ("forbidden", gettext_noop("This is not allowed.")),
    404: ("not_found", gettext_noop("There is nothing here.")),
    405: ("method_not_allowed", gettext_noop("This address does not take that method.")),
    429: ("too_many_attempts", gettext_noop("Too many attempts: wait a while and try again.")),
}


def wants_json(request: HttpRequest) -> bool:
    """A program that asks for JSON and not for a page."""
    accept = request.headers.get("Accept", "")
    return "application/json" in accept and "text/html" not in accept


def error_body(code: str, message: str, fields: dict[str, list[str]] | None = None) -> dict:
    body: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if fields:
        body["fields"] = fields
    return body


def refuse(
    request: HttpRequest, code: str, message: str, status: int = 400, page: Any = None
) -> HttpResponse:
    """A refusal: JSON for a program; for a page, ``page`` (a response, say a redirect back
    with the message shown by django.contrib.messages), else the words alone."""
    if wants_json(request) or page is None:
        return JsonResponse(
            error_body(code, message), status=status, json_dumps_params={"ensure_ascii": False}
        )
    return page


def form_refused(response: HttpResponse, form: Any, code: str = "invalid_form") -> HttpResponse:
    """Mark ``response`` (the page again with ``form``'s errors) so a program gets them as JSON."""
    response.sahrat_form = (form, code)
    return response


def _form_error(form: Any, code: str) -> tuple[str, str, dict[str, list[str]]]:
    fields = {name: [str(e) for e in errs] for name, errs in form.errors.items()}
    general = fields.pop("__all__", [])
    first = (general or [m for ms in fields.values() for m in ms] or [""])[0]
    return code, first or _("The form was refused."), fields


def _to_log_in(response: HttpResponse) -> bool:
    """A redirect to the log-in form with the page asked for (login_required's answer)."""
    login = resolve_url(settings.LOGIN_URL)
    return response.status_code == 302 and response.get("Location", "").startswith(f"{login}?next=")


class JsonErrorsMiddleware:
    """Every 4xx for a program that asks for JSON becomes the one JSON error; a refused form
    (answered 200 with its errors, as a page is) becomes a 400 with them."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not wants_json(request) or response.get("Content-Type", "").startswith(
            "application/json"
        ):
            return response
        if _to_log_in(response):
            # A page for signed-in players asked while signed out: a page is sent to the log-in
            # form; a program is told, as the 401 it is.
            response.status_code = 401
        form = getattr(response, "sahrat_form", None)
        if form is None and request.method == "POST":
            found = (getattr(response, "context_data", None) or {}).get("form")
            if found is not None and getattr(found, "is_bound", False) and found.errors:
                form = (found, "invalid_form")  # Django's own form views (the log-in)
        if form is None and not 400 <= response.status_code < 500:
            return response
        # The page's language (accounts.middleware set it for the request on its way in).
        with translation.override(getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE)):
            if form is not None:
                code, message, fields = _form_error(*form)
                body, status = error_body(code, message, fields), 400
            else:
                code, words = CODES.get(response.status_code, CODES[400])
                body, status = error_body(code, _(words)), response.status_code
        refused = HttpResponse(
            json.dumps(body, ensure_ascii=False),
            status=status,
            content_type="application/json",
        )
        for name in ("Retry-After", "Allow"):
            if name in response:
                refused[name] = response[name]
        refused.cookies = response.cookies
        return refused
