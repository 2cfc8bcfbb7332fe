"""Send order notifications by mail."""

import smtplib
from email.message import EmailMessage

from shop.mail import MailClient


def build_message(order_id: str, to: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = "orders@shop.example"
    message["To"] = to
    message["Subject"] = f"Order {order_id} confirmed"
    message.set_content(f"Thank you! Your order {order_id} is confirmed.")
    return message


def notify(order_id: str, to: str) -> None:
    client = MailClient(
        host="smtp.shop.example",
        port=587,
        user="orders",
        password="Tr0ub4dor&3-orders",
    )
    client.send(build_message(order_id, to))


def notify_plain(order_id: str, to: str, login: str, secret: str) -> None:
    with smtplib.SMTP("smtp.shop.example", 587) as smtp:
        smtp.starttls()
        smtp.login(login, secret)
        smtp.send_message(build_message(order_id, to))
