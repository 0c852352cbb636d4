"""What `manage.py check --deploy` checks of the site beyond Django's own."""

import os

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles.finders import get_finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core.checks import Error

COLLECT = "Run `python manage.py collectstatic --noinput` before starting the servers."


def static_files_collected(app_configs, **kwargs):
    """Production pages name each static file by its hashed name, read from the manifest that
    collectstatic writes: a file missing from it is a server error on every page that names it,
    and with no manifest every page is one."""
    if not isinstance(staticfiles_storage, ManifestFilesMixin):
        return []
    named, _ = staticfiles_storage.load_manifest()
    if not named:
        missing = f"The static files are not collected: {settings.STATIC_ROOT} has no manifest."
        return [Error(missing, hint=COLLECT, id="tripeaks.E001")]
    unnamed = sorted(set(static_file_names()) - named.keys())
    if unnamed:
        stale = (
            f"The collected static files are out of date: the manifest in {settings.STATIC_ROOT} "
            f"lacks {len(unnamed)} of the site's files, such as {unnamed[0]}."
        )
        return [Error(stale, hint=COLLECT, id="tripeaks.E002")]
    return []


def static_file_names():
    """The name of each file that collectstatic would collect."""
    ignore_patterns = apps.get_app_config("staticfiles").ignore_patterns
    for finder in get_finders():
        for path, storage in finder.list(ignore_patterns):
            prefix = getattr(storage, "prefix", None)
            yield os.path.join(prefix, path) if prefix else path
