"""Template helpers for product listings."""

from django import template
from django.utils.html import format_html

register = template.Library()


@register.filter
def stock_label(product):
    state = "in-stock" if product.stock > 0 else "sold-out"
    text = "In stock" if product.stock > 0 else "Sold out"
    return format_html('<span class="label {}">{}</span>', state, text)


@register.filter
def vendor_link(product):
    return format_html('<a href="/vendors/{}/">{}</a>', product.vendor.slug, product.vendor.name)


@register.simple_tag
def price(amount, currency="EUR") -> str:
    return f"{amount:.2f} {currency}"
