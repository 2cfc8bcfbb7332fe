import sys

# the session fixtures, for the tests here
from install_support import CHECKOUT, deps_view, project_repository, wheelhouse  # noqa: F401

sys.path.insert(0, str(CHECKOUT / "tests" / "vcs"))  # the loopback GitLab/GitHub of the VCS tests
