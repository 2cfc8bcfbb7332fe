"""Survey responses collected from the web form."""

from dataclasses import dataclass, field
from datetime import datetime


@dataclass
class SurveyResponse:
    respondent: str
    submitted: datetime
    answers: dict[str, str] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    version: int = 1

    def answer(self, question: str, value: str) -> None:
        self.answers[question] = value.strip()

    def tag(self, label: str) -> None:
        if label not in self.tags:
            self.tags.append(label)


if __name__ == "__main__":
    first = SurveyResponse("r-1", datetime.now())
    second = SurveyResponse("r-2", datetime.now())
    first.tag("beta")
    print(first.tags, second.tags)
