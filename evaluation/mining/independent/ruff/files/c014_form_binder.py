"""Bind submitted form fields onto a model object."""

ALLOWED = ("first_name", "last_name", "email", "newsletter")


class Profile:
    def __init__(self) -> None:
        self.first_name = ""
        self.last_name = ""
        self.email = ""
        self.newsletter = False


def bind(profile: Profile, form: dict[str, str]) -> list[str]:
    changed = []
    for name in ALLOWED:
        if name not in form:
            continue
        value = form[name] == "on" if name == "newsletter" else form[name].strip()
        if getattr(profile, name) != value:
            setattr(profile, name, value)
            changed.append(name)
    return changed


if __name__ == "__main__":
    print(bind(Profile(), {"email": "ada@example.org", "newsletter": "on"}))
