"""Packaging that pyproject.toml cannot say: the repository's top-level `knowledge/` and `models/`
folders ship inside the package as `dualrag._bundled.knowledge` and `dualrag._bundled.models`
(read through `dualrag._bundled`). `[tool.setuptools.packages.find]` cannot add a package mapped
from another folder, so the package list is built here; everything else is in pyproject.toml."""

from setuptools import find_namespace_packages, setup

CODE = find_namespace_packages(include=["dualrag", "dualrag.*", "indexers", "indexers.*"], exclude=["*.__pycache__"])
BUNDLED = {"dualrag._bundled.knowledge": "knowledge", "dualrag._bundled.models": "models"}
# the rule folders (java/, edi/, ...) are data; listed as packages so setuptools copies them whole
RULE_FOLDERS = [f"dualrag._bundled.knowledge.{name}" for name in find_namespace_packages("knowledge")]

setup(
    packages=[*CODE, *BUNDLED, *RULE_FOLDERS],
    package_dir=BUNDLED,
    package_data={
        # whatever data sits beside the code ships with it (prompts, report templates, py.typed)
        **{name: ["*"] for name in CODE},
        **{name: ["*.md"] for name in ["dualrag._bundled.knowledge", *RULE_FOLDERS]},
        # never a model file someone put in models/: those are local and large
        "dualrag._bundled.models": ["manifest.toml", "README.md"],
    },
    exclude_package_data={name: ["*.py", "*.pyc"] for name in CODE},
)
