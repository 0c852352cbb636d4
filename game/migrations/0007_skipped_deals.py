from django.db import migrations, models


def mark_skipped(apps, schema_editor):
    """A game left before any card was taken or drawn was never played: it becomes skipped."""
    Game = apps.get_model("game", "Game")
    Game.objects.filter(status="left", move_count=0).update(status="skipped")


def unmark_skipped(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    Game.objects.filter(status="skipped").update(status="left")


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0006_anonymous_games_by_recency"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="status",
            field=models.CharField(
                choices=[
                    ("playing", "Playing"),
                    ("won", "Won"),
                    ("dead_end", "dead end"),
                    ("left", "left unfinished"),
                    ("skipped", "left untouched"),
                ],
                default="playing",
                max_length=10,
            ),
        ),
        migrations.RunPython(mark_skipped, unmark_skipped),
    ]
