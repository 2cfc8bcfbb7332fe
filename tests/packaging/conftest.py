import sys

from install_support import CHECKOUT, wheelhouse  # noqa: F401 - the session fixture, for the tests here

sys.path.insert(0, str(CHECKOUT / "tests" / "vcs"))  # the loopback GitLab/GitHub of the VCS tests
