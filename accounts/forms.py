import unicodedata

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import User

# Joiners shape Arabic and Persian letters and build emoji sequences; every other format character
# (zero-width spaces, direction overrides and isolates) is invisible or turns the text around it.
ALLOWED_FORMAT_CHARS = {"\u200c", "\u200d"}


def clean_display_name_value(value: str) -> str:
    """The display name a table can show, or a ValidationError in the page's language."""
    name = value.strip()
    if not name:
        raise forms.ValidationError(forms.Field.default_error_messages["required"])
    categories = [unicodedata.category(ch) for ch in name]
    hidden = any(
        cat in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp")
        or (cat == "Cf" and ch not in ALLOWED_FORMAT_CHARS)
        for ch, cat in zip(name, categories, strict=True)
    )
    # A name made only of spaces, joiners or combining marks would show as an empty seat.
    visible = any(cat[0] in "LNPS" for cat in categories)
    if hidden or not visible:
        raise forms.ValidationError(
            _("Use visible letters, digits or signs, without invisible or direction characters.")
        )
    return name


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name")

    def clean_display_name(self) -> str:
        return clean_display_name_value(self.cleaned_data["display_name"])


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "language")

    def clean_display_name(self) -> str:
        return clean_display_name_value(self.cleaned_data["display_name"])
