"""Account forms: sign-up and profile. Names are checked here for the page's words and again in
the database (User.username_key) for races."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from accounts import names
from accounts.models import User
from moderation.rules import decent_name

# Django's own sign-in error, said again here so `make messages` keeps the catalogue's Arabic for
# it: Django's Arabic says «كلمة السر»; the site says «كلمة المرور» everywhere (tests/platform/
# test_words.py).
gettext_noop(
    "Please enter a correct %(username)s and password. Note that both fields may be case-sensitive."
)

INVISIBLE = _("Use visible letters, digits or signs, without invisible or direction characters.")
RESERVED = _("That name is kept for Sahrat's staff; please choose another.")
LOOKALIKE = _("That name is taken, or looks too much like a player's name that is.")
INDECENT = _("That name has words this majlis does not allow; please choose another.")


def clean_display_name_value(value: str, *, staff: bool = False) -> str:
    """The display name a table can show, or a ValidationError in the page's language."""
    name = value.strip()
    if not name:
        raise forms.ValidationError(forms.Field.default_error_messages["required"])
    # A name made only of spaces, joiners, combining marks or blank letters would show as an
    # empty seat; direction overrides would turn the text around it.
    if names.has_hidden_characters(name) or not names.is_visible(name):
        raise forms.ValidationError(INVISIBLE)
    if not staff and names.is_reserved(name):
        raise forms.ValidationError(RESERVED)
    if not decent_name(name):  # the chat's word filter (moderation/rules.py)
        raise forms.ValidationError(INDECENT)
    return name


EMAIL_HELP = _("Optional. Only to send you a link if you forget your password; never shown.")


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")
        help_texts = {"email": EMAIL_HELP}

    def clean_username(self) -> str:
        # Not Django's own check (exact, then case-insensitive): one message for a taken name and
        # for every spelling that folds to it.
        username = self.cleaned_data["username"]
        if names.has_hidden_characters(username) or not names.is_visible(username):
            raise forms.ValidationError(INVISIBLE)
        if names.is_reserved(username):
            raise forms.ValidationError(RESERVED)
        if not decent_name(username):
            raise forms.ValidationError(INDECENT)
        if User.objects.filter(username_key=names.fold(username)).exists():
            raise forms.ValidationError(LOOKALIKE)
        return username

    def clean_display_name(self) -> str:
        return clean_display_name_value(self.cleaned_data["display_name"])


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "language", "digits")
        widgets = {"digits": forms.RadioSelect}

    def clean_display_name(self) -> str:
        return clean_display_name_value(
            self.cleaned_data["display_name"], staff=self.instance.is_staff
        )


class EmailForm(forms.ModelForm):
    """The address for a forgotten password (optional: blank removes it)."""

    class Meta:
        model = User
        fields = ("email",)
        help_texts = {"email": EMAIL_HELP}
