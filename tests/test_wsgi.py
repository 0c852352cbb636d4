"""The app server's entry point."""

import subprocess
import sys


def test_loading_the_app_leaves_what_it_loaded_out_of_full_collections():
    code = (
        "import gc, tripeaks_site.wsgi as w;"
        "assert callable(w.application);"
        "print(gc.get_freeze_count(), len(gc.get_objects()))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    frozen, tracked = map(int, out.stdout.split())

    assert frozen > 10 * tracked
