"""The word list starts with moderation/words.py; staff edit it in the admin from then on."""

from django.db import migrations


def load(apps, schema_editor):
    from moderation.words import STARTING_WORDS

    BannedWord = apps.get_model("moderation", "BannedWord")
    for text, severity in STARTING_WORDS:
        BannedWord.objects.get_or_create(text=text, defaults={"severity": severity})


def unload(apps, schema_editor):
    from moderation.words import STARTING_WORDS

    BannedWord = apps.get_model("moderation", "BannedWord")
    BannedWord.objects.filter(text__in=[text for text, _ in STARTING_WORDS]).delete()


class Migration(migrations.Migration):
    dependencies = [("moderation", "0001_initial")]

    operations = [migrations.RunPython(load, unload)]
