"""A request by a method its address does not take (a GET of a form's address: a logout address
typed in, say) gets the site's notice page saying so, where Django answers with an empty page."""

from django.shortcuts import render


class NotAllowedMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 405 or response.content:
            return response
        page = render(request, "405.html", status=405)
        page["Allow"] = response["Allow"]
        return page
