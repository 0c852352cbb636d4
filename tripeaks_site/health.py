"""The health check: is this app server answering? It touches no database on purpose, so a
load balancer keeps a server whose database is briefly away (players then see the 503 page),
and the benchmark uses it as the floor: Django's full middleware stack doing nothing else."""

from django.http import HttpResponse
from django.views.decorators.http import require_safe


@require_safe
def healthz(request):
    return HttpResponse("ok\n", content_type="text/plain")
