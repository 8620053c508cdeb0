"""python manage.py standing_rebuild: recompute every rating from the rated matches in order, and
every player's standing (reputation marks, shown ratings, totals) from their history, and compare
with what is stored; exit status 1 on any difference."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from standing.services import rebuild, recount


class Command(BaseCommand):
    help = "Recompute every rating from the rated matches and compare with the stored ones."

    def handle(self, *args: Any, **options: Any) -> None:
        found = {**rebuild(), **recount()}
        self.stdout.write(json.dumps(found))
        if found["changes_wrong"] or found["ratings_wrong"]:
            raise CommandError("the stored ratings differ from the rebuild")
        if found["standings_wrong"]:
            raise CommandError("the stored standings differ from the players' histories")
