"""The create-a-table form: the game and its options in a player's words, checked by the game's
own rules (``parse_options``) so a refusal says exactly what is wrong, in the player's language."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

import games
from games.contract import BadOptions


class TableForm(forms.Form):
    game = forms.ChoiceField(
        label=_("Game"), choices=[("hand", _("Hand")), ("jakaro", _("Jakaro"))], initial="hand"
    )
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(2, _("two players")), (3, _("three players")), (4, _("four players"))],
        coerce=int,
        initial=2,
    )
    partners = forms.BooleanField(
        label=_("Partners (four players; Jakaro with four is always partners)"), required=False
    )
    variant = forms.ChoiceField(
        label=_("Hand variant"),
        choices=[("saudi", _("Saudi Hand")), ("plain", _("plain Hand"))],
        initial="saudi",
        required=False,  # Hand only; left out, the rules' default
    )
    table = forms.ChoiceField(
        label=_("Hand table"),
        choices=[("easy", _("easy (hints shown)")), ("strict", _("strict (no hints)"))],
        initial="easy",
        required=False,
    )
    # Hand only (Jakaro has no rounds); its rules bound it (1 to 20), with their own words.
    rounds = forms.IntegerField(label=_("Rounds (Hand)"), min_value=1, initial=5, required=False)
    # The wallet: a coin table's stake (each seat's coins into the pot); only the levels in
    # settings are offered, and the service refuses any other.
    stake = forms.TypedChoiceField(label=_("Stake"), coerce=int, initial=0, required=False)
    private = forms.BooleanField(
        label=_("Private (only people with the invite link)"), required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        levels = [
            (level, _("%(n)s coins a seat") % {"n": level})
            for level in settings.WALLET_STAKE_LEVELS
        ]
        self.fields["stake"].choices = [(0, _("free table (no coins; bots welcome)")), *levels]

    def clean_stake(self) -> int:
        return self.cleaned_data.get("stake") or 0

    def options(self) -> dict[str, Any]:
        """The game's options from the cleaned fields: only the options the game has (its own
        defaults say which), so the form never asks which game it is."""
        data = self.cleaned_data
        engine = games.get(data["game"])
        defaults = engine.options_to_dict(engine.parse_options({}))
        given = {k: data.get(k) for k in ("players", "partners", "variant", "table", "rounds")}
        return {k: v if given.get(k) in (None, "") else given[k] for k, v in defaults.items()}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        try:
            games.get(data["game"]).parse_options(self.options())
        except BadOptions as exc:
            raise forms.ValidationError(exc.message(get_language() or "ar")) from None
        return data
