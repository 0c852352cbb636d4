"""A game whose analysis its player has seen takes no more moves. The analyses kept so far were
nearly all asked for by their players: their finished games count as seen."""

from django.db import migrations, models


def mark_analysed_games_revealed(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    Analysis = apps.get_model("game", "Analysis")
    # An analysis of a game played on since (undone out of its dead end) was of another ending.
    Analysis.objects.filter(game__status="playing").delete()
    Game.objects.filter(analysis__isnull=False).update(revealed=True)


class Migration(migrations.Migration):
    dependencies = [("game", "0019_analyses_under_their_games_rules")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="revealed",
            field=models.BooleanField(
                default=False,
                help_text="Its player has seen the whole deal in its analysis: it takes no more moves.",
            ),
        ),
        migrations.RunPython(mark_analysed_games_revealed, migrations.RunPython.noop),
    ]
