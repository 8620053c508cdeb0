"""Account pages: thin views over Django's auth views and the accounts services."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import services
from accounts.forms import LOOKALIKE, EmailForm, ProfileForm, SignUpForm
from accounts.models import User
from language import http as api
from standing.selectors import locked_until, ratings_of, reputation_of


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        language = translation.get_language()
        try:
            user = services.user_create(
                username=form.cleaned_data["username"],
                display_name=form.cleaned_data["display_name"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data.get("email") or "",
                language=language if language in User.Language.values else User.Language.ARABIC,
            )
        except services.UsernameTaken:
            # Lost a race to a sign-up with the same name or one that folds to it.
            form.add_error("username", LOOKALIKE)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome to Sahrat!"))
            return redirect(settings.LOGIN_REDIRECT_URL)
    return api.form_refused(render(request, "accounts/signup.html", {"form": form}), form)


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = request.user
        services.user_update_profile(
            user=user,
            display_name=form.cleaned_data["display_name"],
            language=form.cleaned_data["language"],
            digits=form.cleaned_data["digits"],
        )
        translation.activate(user.language)
        messages.success(request, _("Your profile is saved."))
        response = redirect("accounts:profile")
        _remember_language(response, user.language)
        return response
    context = {
        "form": form,
        "standing": ratings_of(request.user),
        "reputation": reputation_of(request.user),
        "locked_until": locked_until(request.user),
    }
    return render(request, "accounts/profile.html", context)


@login_required
def email(request: HttpRequest) -> HttpResponse:
    """The address a "forgot password" link is sent to."""
    form = EmailForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        services.user_set_email(user=request.user, email=form.cleaned_data["email"])
        messages.success(request, _("Your e-mail address is saved."))
        return redirect("accounts:profile")
    return render(request, "accounts/email.html", {"form": form})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Switch the page language; a signed-in player's profile remembers it."""
    language = request.POST.get("language", "")
    if language not in dict(settings.LANGUAGES):
        return HttpResponseBadRequest(_("Unknown language."))
    if request.user.is_authenticated:
        services.user_set_language(user=request.user, language=language)
    next_url = request.POST.get("next") or reverse("home")
    if not url_has_allowed_host_and_scheme(
        next_url, {request.get_host()}, require_https=request.is_secure()
    ):
        next_url = reverse("home")
    response = HttpResponseRedirect(next_url)
    _remember_language(response, language)
    return response


def _remember_language(response: HttpResponse, language: str) -> None:
    """The language cookie, with the flags Django's own language cookie takes from settings
    (Secure in production)."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=60 * 60 * 24 * 365,
        samesite="Lax",
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
    )
