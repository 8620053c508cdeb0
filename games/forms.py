"""The majlis's forms: creating a table and quick play. The game and its options in a player's
words, checked by the game's own rules (``parse_options``) so a refusal says exactly what is
wrong, in the player's language.

Which field and which choice belongs to which game is read from the engines themselves (a
game's options are the keys of its defaults; a player count fits when ``parse_options``
takes it), so the page's script, which shows only the chosen game's fields, and the server,
which refuses the others, can never disagree."""

from __future__ import annotations

from functools import cache
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

import games
from games.contract import BadOptions
from games.models import BOT_LEVEL_CHOICES
from language import words
from language.digits import digits
from standing.reputation import MIN_REPUTATION_LEVELS

GAME_CHOICES = [("hand", _("Hand")), ("jakaro", _("Jakaro"))]
PLAYER_COUNTS = (2, 3, 4)
MAX_SEATS = max(PLAYER_COUNTS)
# The form fields that are a game option (named as the engines name them).
OPTION_FIELDS = ("players", "partners", "variant", "table", "rounds")


@cache
def game_options(game: str) -> frozenset[str]:
    """The option names ``game`` has (the keys of its defaults)."""
    engine = games.get(game)
    return frozenset(engine.options_to_dict(engine.parse_options({})))


@cache
def player_counts(game: str) -> tuple[int, ...]:
    """The numbers of players ``game`` can be played by, as its rules say."""
    engine = games.get(game)
    fitting = []
    for n in PLAYER_COUNTS:
        try:
            engine.parse_options({"players": n})
        except BadOptions:
            continue
        fitting.append(n)
    return tuple(fitting)


def games_with(option: str) -> list[str]:
    return [g for g, _label in GAME_CHOICES if option in game_options(g)]


def games_for_players(n: int) -> list[str]:
    return [g for g, _label in GAME_CHOICES if n in player_counts(g)]


def _words(names: list[str]) -> str:
    return " ".join(names)


class GameSelect(forms.Select):
    """A select whose options say which games (``data-games``) or which player counts
    (``data-players``) they fit, for the page's script."""

    def __init__(self, *args: Any, option_attrs: dict[str, dict[str, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.option_attrs = option_attrs

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        option["attrs"].update(self.option_attrs.get(str(value), {}))
        return option


def _players_select() -> GameSelect:
    return GameSelect(
        option_attrs={str(n): {"data-games": _words(games_for_players(n))} for n in PLAYER_COUNTS}
    )


def _stake_choices() -> list[tuple[int, Any]]:
    levels = [
        (level, _("%(coins)s a seat") % {"coins": words.count("coins", level)})
        for level in settings.WALLET_STAKE_LEVELS
    ]
    return [(0, _("free table (no coins; bots welcome)")), *levels]


class TableForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES, initial="hand")
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(2, _("two players")), (3, _("three players")), (4, _("four players"))],
        coerce=int,
        initial=2,
    )
    partners = forms.BooleanField(label=_("Partners (four players only)"), required=False)
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
    # Who may sit: at least this share of their recent matches finished (standing/reputation).
    min_reputation = forms.TypedChoiceField(
        label=_("Players who finish their matches"),
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,
    )
    private = forms.BooleanField(
        label=_("Private (only people with the invite link)"), required=False
    )
    # How well the bots play that the creator seats (a free table's; docs/bots.md).
    bot_level = forms.ChoiceField(
        label=_("Bots at this table play"),
        choices=BOT_LEVEL_CHOICES,
        initial="normal",
        required=False,
        help_text=_("At a free table, the bots you seat: easy, normal or strong."),
    )
    # Where the creator sits: the table page sits them there as it opens, with a seed made by
    # their browser after it shows the match's commitment (docs/fairness.md), as any sit-down.
    seat = forms.TypedChoiceField(
        label=_("Your seat"),
        coerce=int,
        empty_value=None,
        initial=0,
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].widget = _players_select()
        self.fields["players"].widget.choices = self.fields["players"].choices
        self.fields["stake"].choices = _stake_choices()
        self.fields["min_reputation"].choices = [
            (n, _("%(n)s %% or more of their matches") % {"n": digits(n)} if n else _("anyone"))
            for n in MIN_REPUTATION_LEVELS
        ]
        seat = self.fields["seat"]
        seat.choices = [
            *((n, _("seat %(n)s") % {"n": digits(n + 1)}) for n in range(MAX_SEATS)),
            ("", _("none for now (I will watch or choose later)")),
        ]
        # A seat fits a table of at least that many players (the page's script hides the rest).
        seat.widget = GameSelect(
            option_attrs={str(n): {"data-min-players": str(n + 1)} for n in range(MAX_SEATS)}
        )
        seat.widget.choices = seat.choices
        # Each option field says which games have it, and the partners box that it is for four.
        for name in OPTION_FIELDS:
            self.fields[name].games = games_with(name)
        self.fields["partners"].players = 4

    @property
    def chosen_game(self) -> str:
        """The game the form is for now: the one sent, else the initial one."""
        value = self.data.get("game") if self.is_bound else None
        value = value or self.initial.get("game") or self.fields["game"].initial
        return value if value in dict(GAME_CHOICES) else "hand"

    def rows(self) -> list[dict[str, Any]]:
        """The fields to draw, each with the games it belongs to (None: every game) and whether
        it is shown for the chosen game; hidden ones are disabled, so never sent."""
        game = self.chosen_game
        rows = []
        for bound in self:
            belongs = getattr(bound.field, "games", None)
            shown = belongs is None or game in belongs
            rows.append(
                {
                    "field": bound,
                    "games": _words(belongs) if belongs is not None else "",
                    "players": getattr(bound.field, "players", ""),
                    "shown": shown,
                }
            )
        return rows

    def clean_stake(self) -> int:
        return self.cleaned_data.get("stake") or 0

    def options(self) -> dict[str, Any]:
        """The game's options from the cleaned fields: only the options the game has (its own
        defaults say which), so the form never asks which game it is."""
        data = self.cleaned_data
        engine = games.get(data["game"])
        defaults = engine.options_to_dict(engine.parse_options({}))
        given = {k: data.get(k) for k in OPTION_FIELDS}
        return {k: v if given.get(k) in (None, "") else given[k] for k, v in defaults.items()}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        game, players, seat = data["game"], data["players"], data.get("seat")
        name = dict(GAME_CHOICES)[game]
        # An option of another game is refused, not dropped: the player asked for something
        # this game does not have (a Jakaro table with a Hand variant, say).
        # Said above the form, not beside the field: the form drawn again for this game hides
        # that field (a browser without the page's script sent it).
        for field in OPTION_FIELDS:
            if field not in game_options(game) and data.get(field) not in (None, "", False):
                self.add_error(
                    None,
                    _("%(game)s has no such option; leave «%(option)s» out.")
                    % {"game": name, "option": self.fields[field].label},
                )
        if players not in player_counts(game):
            self.add_error("players", players_message(game))
        elif seat is not None and not 0 <= seat < players:
            self.add_error(
                "seat",
                ngettext(
                    "A table of %(players)s player has no seat %(n)s.",
                    "A table of %(players)s players has no seat %(n)s.",
                    players,
                )
                % {"players": digits(players), "n": digits(seat + 1)},
            )
        if self.errors:
            return data
        try:
            games.get(game).parse_options(self.options())
        except BadOptions as exc:
            raise forms.ValidationError(exc.message(get_language() or "ar")) from None
        return data


def players_message(game: str) -> str:
    """What a player reads when a count does not fit ``game``: the counts that do."""
    counts = [digits(n) for n in player_counts(game)]
    comma = "، " if (get_language() or "ar").startswith("ar") else ", "
    listed = counts[0] if len(counts) == 1 else f"{comma.join(counts[:-1])} {_('or')} {counts[-1]}"
    return str(
        _("%(game)s is played by %(counts)s players.")
        % {"game": dict(GAME_CHOICES)[game], "counts": listed}
    )


# Quick play's modes: how many play, and whether in partners. Each game offers the modes its
# rules allow (Jakaro with four is always partners, so it has no "four, each for themselves").
MODES = {
    "2": (2, False, _("two players")),
    "3": (3, False, _("three players")),
    "4": (4, False, _("four players, each for themselves")),
    "4p": (4, True, _("four players in partners")),
}


@cache
def game_modes(game: str) -> tuple[str, ...]:
    """The quick-play modes ``game`` has: those its rules take, with the partners they say."""
    engine = games.get(game)
    keys = game_options(game)
    fitting = []
    for mode, (players, partners, _label) in MODES.items():
        asked = {"players": players, "partners": partners}
        try:
            parsed = engine.parse_options({k: v for k, v in asked.items() if k in keys})
        except BadOptions:
            continue
        if any(len(unit) > 1 for unit in engine.teams(parsed)) == partners:
            fitting.append(mode)
    return tuple(fitting)


class QuickPlayForm(forms.Form):
    """Quick play: the first open seat of a public table that fits the game, mode and stake."""

    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES, initial="hand")
    mode = forms.ChoiceField(label=_("Mode"), required=False, initial="")
    stake = forms.TypedChoiceField(label=_("Stake"), coerce=int, initial=0, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Its own ids: the create form on the same page has a game and a stake too.
        kwargs.setdefault("auto_id", "quick_%s")
        super().__init__(*args, **kwargs)
        mode = self.fields["mode"]
        mode.choices = [("", _("any mode")), *((k, label) for k, (_p, _t, label) in MODES.items())]
        mode.widget = GameSelect(
            option_attrs={
                k: {"data-games": _words([g for g, _l in GAME_CHOICES if k in game_modes(g)])}
                for k in MODES
            }
        )
        mode.widget.choices = mode.choices
        self.fields["stake"].choices = _stake_choices()

    def clean_stake(self) -> int:
        return self.cleaned_data.get("stake") or 0

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors and data.get("mode") and data["mode"] not in game_modes(data["game"]):
            self.add_error(
                "mode", _("%(game)s has no such mode.") % {"game": dict(GAME_CHOICES)[data["game"]]}
            )
        return data

    def wanted(self) -> tuple[int | None, bool | None]:
        """(players, partners) asked for; None where any will do."""
        mode = self.cleaned_data.get("mode")
        if not mode:
            return None, None
        players, partners, _label = MODES[mode]
        return players, partners
