from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery
from django.db.models.functions import Coalesce


def count_logged_entries(apps, schema_editor):
    """Games that already have a log go on numbering after their last entry."""
    Game = apps.get_model("game", "Game")
    Action = apps.get_model("game", "Action")
    last_seq = (
        Action.objects.filter(game=OuterRef("pk"))
        .values("game")
        .annotate(last=Max("seq"))
        .values("last")
    )
    Game.objects.update(logged=Coalesce(Subquery(last_seq), 0))


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0003_game_current_since"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="logged",
            field=models.PositiveIntegerField(
                default=0, help_text="Entries in the action log: the next one gets seq logged + 1."
            ),
        ),
        migrations.RunPython(count_logged_entries, migrations.RunPython.noop),
    ]
