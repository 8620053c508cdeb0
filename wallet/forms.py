"""The staff adjustment form (the admin's only way to move coins)."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _


class AdjustmentForm(forms.Form):
    username = forms.CharField(label=_("Player's username"), max_length=150)
    direction = forms.ChoiceField(
        label=_("Direction"),
        choices=[
            ("credit", _("credit: coins to the player, from the rewards account")),
            ("debit", _("debit: coins from the player, back to the rewards account")),
        ],
    )
    amount = forms.IntegerField(label=_("Coins"))
    reason = forms.CharField(label=_("Reason"), max_length=200)
    # One key per form shown: a form sent twice (a double click, a reload) adjusts once.
    key = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("key", uuid.uuid4().hex)

    def clean_username(self) -> Any:
        name = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(_("There is no player with that username."))
        return user

    def clean_amount(self) -> int:
        amount = self.cleaned_data["amount"]
        limit = settings.WALLET_ADJUST_MAX
        if not 1 <= amount <= limit:
            raise forms.ValidationError(
                _("The amount must be a whole number of coins from 1 to %(max)s.") % {"max": limit}
            )
        return amount

    def clean_reason(self) -> str:
        reason = " ".join(self.cleaned_data["reason"].split())
        if not reason:
            raise forms.ValidationError(_("Write the reason for the adjustment."))
        return reason
