"""The app server's entry point."""

import json
import subprocess
import sys

# Which objects a full collection of the loaded app server walks: gc.get_objects() lists every
# object the cycle collector tracks, and frozen ones are not among them.
WALKED_BY_A_FULL_COLLECTION = """
import gc, json
import tripeaks_site.wsgi as wsgi
from game.models import Game

class MadeLater:
    pass

later = MadeLater()
walked = {id(thing) for thing in gc.get_objects()}
things = {"application": wsgi.application, "model class": Game, "object made later": later}
print(json.dumps({name: id(thing) in walked for name, thing in things.items()}))
"""


def test_what_the_app_loaded_is_left_out_of_full_collections_and_later_objects_are_not():
    out = subprocess.run(
        [sys.executable, "-c", WALKED_BY_A_FULL_COLLECTION],
        capture_output=True,
        text=True,
        check=True,
    )

    assert json.loads(out.stdout) == {
        "application": False,
        "model class": False,
        "object made later": True,
    }
