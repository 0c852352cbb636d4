import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripeaks_site.settings")

application = get_wsgi_application()

# What is loaded by now (Django, the site, their modules and classes) lives as long as the
# process. Frozen, it is left out of the cycle collector's full passes, which otherwise walk all of
# it while the request waits, and the forked workers share it instead of each writing a copy.
gc.freeze()
