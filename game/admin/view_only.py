class ViewOnly:
    """The log is the truth and the game rows are derived from it: staff read, never write."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
