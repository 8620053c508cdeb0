from django.db import migrations


def make_main_majlis(apps, schema_editor):
    Majlis = apps.get_model("games", "Majlis")
    Majlis.objects.get_or_create(
        slug="main",
        defaults={
            "name": "المجلس",
            "description": "Saudi Hand and Jakaro tables for everyone",
            "order": 0,
            "default_options": {
                "hand": {"players": 4, "partners": False, "variant": "saudi", "table": "easy"},
                "jakaro": {"players": 4},
            },
        },
    )


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(make_main_majlis, migrations.RunPython.noop)]
