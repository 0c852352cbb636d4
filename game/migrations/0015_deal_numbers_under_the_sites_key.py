from django.conf import settings
from django.db import migrations

from game.engine.deck import deck_for_number, format_deck


def forget_numbers_of_other_decks(apps, schema_editor):
    """Deal numbers now name decks by the site's key: a stored deal whose deck its number no longer
    deals keeps its cards (and its games) and is named by its deck code from now on."""
    Deal = apps.get_model("game", "Deal")
    for deal in Deal.objects.exclude(number=None).iterator():
        if format_deck(deck_for_number(deal.number, settings.TRIPEAKS_DEAL_KEY)) != deal.deck:
            Deal.objects.filter(pk=deal.pk).update(number=None)


class Migration(migrations.Migration):
    dependencies = [("game", "0014_verdicts_per_rule_set")]

    operations = [migrations.RunPython(forget_numbers_of_other_decks, migrations.RunPython.noop)]
