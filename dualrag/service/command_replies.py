"""What the bot writes in answer to a command: help, an acknowledgement, an answer with its sources.

Every body carries a reply marker (`<!-- dualrag:reply kind=... to=<note id> -->`): the bot knows
its own comments by it, and a redelivered comment is answered once. The model's words go through
the publishers' escaping (`prose`: no link, image, HTML, heading, mention or reference comes out of
it; `neutralise`: no control or bidirectional character), like a finding's message.
"""

from __future__ import annotations

from dualrag.publish.blocks import code_span, plain, prose
from dualrag.review.ask import Answer
from dualrag.service.command_text import defuse_commands
from dualrag.source.text import neutralise
from dualrag.vcs.markers import reply_marker

COMMANDS = (
    ("/dualrag review", "review the merge request's latest commit again, now"),
    ("/dualrag ask <question>", ("answer a question about this change from the team's rules and the code "
                                 "around it (the rules and code a review retrieves), with its sources")),
    ("/dualrag help", "this list"),
)


def help_body(note_id: str, who_may: str, unknown: str | None = None) -> str:
    head = [reply_marker("help", note_id)]
    if unknown is not None:
        head.append(f"Unknown command {code_span('/dualrag ' + unknown)}.")
        head.append("")
    intro = f"**dualrag commands**, each at the start of a line of a comment on this merge request (for {who_may}):"
    lines = [*head, intro, ""]
    lines += [f"- {code_span(cmd)}: {what}" for cmd, what in COMMANDS]
    return neutralise("\n".join(lines))


def review_body(note_id: str, head_sha: str) -> str:
    return neutralise(f"{reply_marker('review', note_id)}\nQueued a review of {code_span(head_sha[:12])}: the "
                      "summary comment is updated when it is done.")


def ask_usage_body(note_id: str) -> str:
    return neutralise(f"{reply_marker('ask', note_id)}\nAsk a question after the command, e.g. "
                      f"{code_span('/dualrag ask does this change follow our rules on logging?')}.")


def answer_body(note_id: str, answer: Answer) -> str:
    out = [reply_marker("ask", note_id)]
    if answer.text is not None:
        out += [f"**Answer** ({plain(answer.model or 'model')}, from what a review of this change retrieves):", "",
                defuse_commands(prose(answer.text))]
    else:
        reason = plain(answer.reason or "no model")
        out += [f"No model answered ({reason}). What a review of this change retrieves for it:"]
    out += ["", "**Rules**" if answer.rules else "No team rule was retrieved for this change."]
    out += [f"- {code_span(r.rule_id)} {plain(r.title)} · {plain(r.source)}" for r in answer.rules]
    if answer.code:
        out += ["", "**Code**"]
        out += [f"- {code_span(c.where)} {plain(c.what)}" for c in answer.code]
    out += ["", "<sub>dualrag · the answer is advice: it does not change the review's decision</sub>"]
    return neutralise("\n".join(out))
