"""A HEAD request is answered with a GET's headers and no body. Django's views write the body all
the same and leave it to the server to drop: its development server drops it silently, gunicorn
with a warning each time, and uptime monitors, link checkers and load balancers ask with HEAD."""


class HeadWithoutBodyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.method == "HEAD":
            # The Content-Length set for the body stays: a GET's would be the same.
            if response.streaming:
                response.streaming_content = []
            else:
                response.content = b""
        return response
