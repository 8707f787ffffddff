"""Domain hooks named as ``"module:attr"`` (``itbench.plugins.hooks``): imported on first call,
plain data until then, a clear error when they name nothing; the built-in domains' all resolve."""

from __future__ import annotations

import pickle
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from itbench.plugins.hooks import Hook, HookError, hook
from itbench.plugins.spec import Domain
from itbench.runner.trial import domain_package_dirs


def test_a_hook_imports_its_module_on_the_first_call_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "lazy_hook_target.py").write_text(
        "import sys\nsys.lazy_hook_imports = getattr(sys, 'lazy_hook_imports', 0) + 1\n"
        "def double(x):\n    return 2 * x\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    doubled = hook("lazy_hook_target:double")
    assert "lazy_hook_target" not in sys.modules
    assert pickle.loads(pickle.dumps(doubled)) == Hook("lazy_hook_target:double")
    assert doubled(21) == 42
    assert doubled(1) == 2
    assert sys.lazy_hook_imports == 1  # type: ignore[attr-defined]  # set by the module above
    monkeypatch.delitem(sys.modules, "lazy_hook_target")


@pytest.mark.parametrize(
    ("target", "error", "named"),
    [
        ("no_such_module_xyz:f", HookError, "ModuleNotFoundError"),
        ("json:no_such_function", HookError, "AttributeError"),
        ("sys:maxsize", HookError, "names a int, not a function"),
    ],
)
def test_a_hook_naming_nothing_callable_is_an_error_naming_it(
    target: str, error: type[Exception], named: str
) -> None:
    with pytest.raises(error, match=named) as caught:
        hook(target)()
    assert repr(target) in str(caught.value)


@pytest.mark.parametrize("target", ["json.dumps", "json:", ":dumps", "json:dumps()"])
def test_a_malformed_target_is_refused_when_the_domain_is_built(target: str) -> None:
    with pytest.raises(ValueError, match="expected 'package.module:attribute'"):
        hook(target)


def _domains() -> list[Domain]:
    from ciso.plugin import domain as ciso
    from finops.plugin import domain as finops
    from sre.plugin import domain as sre

    return [ciso, finops, sre]


@pytest.mark.parametrize("domain", _domains(), ids=lambda d: d.name)
def test_every_hook_of_a_built_in_domain_resolves(domain: Domain) -> None:
    hooks = [getattr(domain, f.name) for f in fields(domain)]
    hooks += list(domain.agents.values())
    named = [h for h in hooks if isinstance(h, Hook)]
    assert named or domain.name == "finops"
    for value in named:
        assert callable(value.resolve()), value.target
    # the domain's own package stays hidden from agents: named hooks count as its code
    package_dirs = domain_package_dirs(domain)
    assert any(d.name == domain.name for d in package_dirs), package_dirs


def test_loading_the_plugins_imports_none_of_their_hooks() -> None:
    code = (
        "import sys, ciso.plugin, sre.plugin\n"
        "heavy = ('ciso.evaluation', 'ciso.engines', 'ciso.environments', 'ciso.hooks', "
        "'sre.judge', 'sre.agents', 'sre.twin', 'sre.cluster')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert proc.stdout.strip() == "[]"
