"""Refunds issued by support staff."""

from dataclasses import dataclass
from decimal import Decimal


@dataclass
class Agent:
    name: str
    can_refund: bool
    refund_limit: Decimal


def issue_refund(agent: Agent, order_total: Decimal, amount: Decimal, ledger) -> str:
    assert agent.can_refund, f"{agent.name} may not issue refunds"
    if amount > order_total:
        raise ValueError("refund exceeds the order total")
    if amount > agent.refund_limit:
        raise PermissionError(f"{agent.name} may refund at most {agent.refund_limit}")
    return ledger.record_refund(agent.name, amount)


def refund_all(agent: Agent, orders: dict[str, Decimal], ledger) -> list[str]:
    return [issue_refund(agent, total, total, ledger) for total in orders.values()]
