"""The words of each game's statistics on a player's page, from a mode's totals (the counts the
engines' ``tally`` kept, added up by standing/services/records.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from language.digits import digits


def _share(part: int, whole: int) -> str:
    return f"{digits(100 * part // whole)}%" if whole else "—"


def stat_rows(game: str, totals: dict[str, int]) -> list[tuple[str, str]]:
    """(label, value) rows for ``game``'s statistics in ``totals``."""
    t = {k: int(v) for k, v in totals.items()}
    played = t.get("played", 0)
    if game == "hand":
        rounds = t.get("rounds", 0)
        average = t.get("round_score", 0) / rounds if rounds else None
        return [
            (_("Rounds won"), f"{digits(t.get('rounds_won', 0))} / {digits(rounds)}"),
            (
                _("Average round score (lower is better)"),
                "—" if average is None else digits(round(average)),
            ),
            (_("«Hand» rounds (out in one go)"), digits(t.get("hands", 0))),
            (_("Opened first"), _share(t.get("opened_first", 0), rounds)),
        ]
    return [
        (_("Marbles brought home"), digits(t.get("home", 0))),
        (_("Knock-outs"), digits(t.get("knock_outs", 0))),
        (_("Knocked out"), digits(t.get("knocked_out", 0))),
        (_("Cards burned by a Ten"), digits(t.get("burned", 0))),
        (_("Matches won"), _share(t.get("won", 0), played)),
    ]
