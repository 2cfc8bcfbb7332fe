"""Template helpers for the forum."""

from django import template
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def author_badge(comment):
    role = "moderator" if comment.author.is_staff else "member"
    html = f'<span class="badge {role}">{comment.author.display_name}</span>'
    return mark_safe(html)


@register.simple_tag
def reply_count(thread) -> str:
    count = thread.replies.count()
    return f"{count} repl{'y' if count == 1 else 'ies'}"


@register.filter
def excerpt(text: str, words: int = 30) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" ..." if len(parts) > words else "")
