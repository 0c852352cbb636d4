from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def play(request):
    return render(request, "game/play.html")
