from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import User


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name")

    def clean_display_name(self) -> str:
        # A name of spaces would show as an empty seat at the table.
        name = self.cleaned_data["display_name"].strip()
        if not name:
            raise forms.ValidationError(self.fields["display_name"].error_messages["required"])
        return name


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "language")

    clean_display_name = SignUpForm.clean_display_name
