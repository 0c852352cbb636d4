"""The health check: is this app server answering? It touches no database on purpose, so a
load balancer keeps a server whose database is briefly away (players then see the 503 page),
and the benchmark uses it as the floor: Django's full middleware stack doing nothing else."""

from django.core.exceptions import DisallowedHost
from django.http import HttpResponse
from django.views.decorators.http import require_safe


@require_safe
def healthz(request):
    return HttpResponse("ok\n", content_type="text/plain")


class AnyHostMiddleware:
    """A load balancer may probe /healthz by the server's own address, which DJANGO_ALLOWED_HOSTS
    need not list: such a probe is answered here, before anything reads the request's host (which
    would refuse it with a 400 and log it). A probe by an allowed name, and every other address,
    go through the whole stack and its host check as before."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        probe = request.path_info == "/healthz" and request.method in ("GET", "HEAD")
        if probe and not host_allowed(request):
            return healthz(request)
        return self.get_response(request)


def host_allowed(request) -> bool:
    try:
        request.get_host()
    except DisallowedHost:
        return False
    return True
