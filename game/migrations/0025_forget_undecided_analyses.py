"""Analyses a solve's time cut short were kept for good, and said nothing true of where the game
was lost: they go, and each is worked out again the next time it is asked for (now one cut short
is kept only for a while)."""

from django.db import migrations
from django.db.models import Q


def forget_undecided_analyses(apps, schema_editor):
    Analysis = apps.get_model("game", "Analysis")
    where_lost_unknown = Q(winnable=True, last_winnable__isnull=True) & ~Q(game__status="won")
    Analysis.objects.filter(Q(winnable__isnull=True) | where_lost_unknown).delete()


class Migration(migrations.Migration):
    dependencies = [("game", "0024_status_labels")]

    operations = [migrations.RunPython(forget_undecided_analyses, migrations.RunPython.noop)]
