"""Plugin loading: built-ins, entry points, broken plugins, duplicates, strict mode."""

from __future__ import annotations

import re
import textwrap
import warnings
from pathlib import Path

import pytest

from factcov import plugins
from factcov.errors import PluginError, UnknownNameError


def make_distribution(root: Path, dist: str, version: str, entry: str, module: str, source: str) -> None:
    """A minimal installed distribution on sys.path: its module and an entry point in group factcov."""
    (root / f"{module}.py").write_text(textwrap.dedent(source))
    info = root / f"{dist}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(f"[factcov]\n{entry} = {module}\n")


PLUGIN_SOURCE = """
    from factcov import hookimpl
    from factcov.domain import Domain

    class {cls}(Domain):
        name = "{domain}"
        description = "from an entry point"
        default_extractor = "none"

    @hookimpl
    def register_domains(register):
        register({cls})
"""


@pytest.fixture
def entry_points_dir(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.reset()
    yield tmp_path
    for name in ("fake", "broken", "dupe", "typo", "notebook"):
        if plugins.pm.get_plugin(name) is not None:
            plugins.pm.unregister(name=name)
    plugins.reset()


def test_builtin_plugins_are_loaded_lazily_on_first_access():
    plugins.reset()
    assert plugins.domains.entries == {}
    plugins.load_plugins()
    names = {info.name for info in plugins.plugin_infos()}
    assert set(plugins.DEFAULT_PLUGINS) <= names


def test_entry_point_plugin_is_found_with_its_version(entry_points_dir, monkeypatch):
    make_distribution(entry_points_dir, "fake_dist", "1.2.3", "fake", "fake_factcov_plugin",
                      PLUGIN_SOURCE.format(cls="Fake", domain="fakedomain"))
    monkeypatch.setenv("FACTCOV_PLUGINS", "fake")
    assert plugins.get_domain("fakedomain").description == "from an entry point"
    assert plugins.domains.plugin_of("fakedomain") == "fake"
    info = {i.name: i for i in plugins.plugin_infos()}["fake"]
    assert info.version == "1.2.3" and info.hooks == ["register_domains"] and not info.builtin


def test_plugins_not_allowed_by_factcov_plugins_are_not_loaded(entry_points_dir, monkeypatch):
    make_distribution(entry_points_dir, "fake_dist", "1.0", "fake", "fake_factcov_plugin2",
                      PLUGIN_SOURCE.format(cls="Fake", domain="fakedomain"))
    monkeypatch.setenv("FACTCOV_PLUGINS", "")
    with pytest.raises(UnknownNameError, match="unknown domain 'fakedomain'"):
        plugins.get_domain("fakedomain")


def test_broken_plugin_warns_and_is_skipped(entry_points_dir, monkeypatch):
    make_distribution(entry_points_dir, "broken_dist", "0.1", "broken", "broken_factcov_plugin",
                      "raise ImportError('needs a library that is not installed')\n")
    monkeypatch.setenv("FACTCOV_PLUGINS", "broken")
    with pytest.warns(RuntimeWarning, match="plugin 'broken' failed to load and was skipped"):
        plugins.load_plugins()
    assert "broken" not in {i.name for i in plugins.plugin_infos()}


def test_strict_mode_turns_a_broken_plugin_into_an_error(entry_points_dir, monkeypatch):
    make_distribution(entry_points_dir, "broken_dist", "0.1", "broken", "broken_factcov_plugin_strict",
                      "raise ImportError('missing library')\n")
    monkeypatch.setenv("FACTCOV_PLUGINS", "broken")
    monkeypatch.setenv("FACTCOV_STRICT_PLUGINS", "1")
    with pytest.raises(PluginError, match="missing library.*FACTCOV_STRICT_PLUGINS"):
        plugins.load_plugins()


def test_misspelled_hook_is_reported_not_silently_ignored(entry_points_dir, monkeypatch):
    make_distribution(entry_points_dir, "typo_dist", "0.1", "typo", "typo_factcov_plugin", """
        from factcov import hookimpl

        @hookimpl
        def register_domain(register):
            pass
    """)
    monkeypatch.setenv("FACTCOV_PLUGINS", "typo")
    with pytest.warns(RuntimeWarning, match="plugin 'typo' failed.*register_domain"):
        plugins.load_plugins()


def test_a_module_registered_in_code_with_a_misspelled_hook_is_refused_naming_it(entry_points_dir, monkeypatch):
    import types

    from factcov import hookimpl

    typo = types.ModuleType("notebook_plugin")
    typo.register_domian = hookimpl(lambda register: None)  # type: ignore[attr-defined]
    with pytest.raises(PluginError, match="plugin 'notebook' implements 'register_domian'.*did you mean 'register_domains'"):
        plugins.register_plugin(typo, "notebook")
    assert plugins.pm.get_plugin("notebook") is None  # refused: nothing left pending
    make_distribution(entry_points_dir, "fake_dist", "1.0", "fake", "fake_after_typo_plugin",
                      PLUGIN_SOURCE.format(cls="Fake", domain="fakedomain"))
    monkeypatch.setenv("FACTCOV_PLUGINS", "fake")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the later plugin loads: it is not blamed
        assert plugins.get_domain("fakedomain").description == "from an entry point"


def test_a_pending_misspelled_hook_blames_its_own_plugin_only(entry_points_dir, monkeypatch):
    import types

    from factcov import hookimpl

    typo = types.ModuleType("sneaky_plugin")  # registered around register_plugin's check
    typo.register_extractor = hookimpl(lambda register: None)  # type: ignore[attr-defined]
    plugins.pm.register(typo, name="typo")
    make_distribution(entry_points_dir, "fake_dist", "1.0", "fake", "fake_after_pending_plugin",
                      PLUGIN_SOURCE.format(cls="Fake", domain="fakedomain"))
    monkeypatch.setenv("FACTCOV_PLUGINS", "fake")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert plugins.get_domain("fakedomain").description == "from an entry point"
    with pytest.raises(PluginError, match="plugin 'typo' implements 'register_extractor'"):
        plugins.check_hooks("typo")


def test_a_hook_that_raises_is_skipped_with_a_warning(entry_points_dir, monkeypatch):
    make_distribution(entry_points_dir, "broken_dist", "0.1", "broken", "raising_factcov_plugin", """
        from factcov import hookimpl

        @hookimpl
        def register_domains(register):
            raise RuntimeError("boom")
    """)
    monkeypatch.setenv("FACTCOV_PLUGINS", "broken")
    with pytest.warns(RuntimeWarning, match="boom"):
        plugins.load_plugins()


def test_duplicate_domain_names_are_an_error_naming_both_plugins(entry_points_dir, monkeypatch, mini_plugin):
    make_distribution(entry_points_dir, "dupe_dist", "0.1", "dupe", "dupe_factcov_plugin",
                      PLUGIN_SOURCE.format(cls="Mini", domain="mini"))
    monkeypatch.setenv("FACTCOV_PLUGINS", "dupe")
    with pytest.raises(PluginError, match=r"domain 'mini' is registered twice: by plugin '(mini|dupe)' and by plugin '(dupe|mini)'"):
        plugins.load_plugins()


def test_unknown_domain_lists_the_available_ones(mini_plugin):
    with pytest.raises(UnknownNameError) as info:
        plugins.get_domain("nope")
    assert "mini" in str(info.value)


def test_hook_implementations_may_take_fewer_arguments(mini_plugin):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plugins.load_plugins()
    assert plugins.extractors.get("mini-regex").name == "mini-regex"


def test_every_hookspec_is_documented_with_its_signature(repo_root):
    import inspect

    from factcov import hookspecs

    doc = (repo_root / "docs" / "plugins.md").read_text()
    for name in ("register_domains", "register_extractors", "register_commands", "render_prompt"):
        spec = getattr(hookspecs, name)
        params = ", ".join(inspect.signature(spec).parameters)
        assert f"{name}({params})" in doc, f"docs/plugins.md must document {name}({params})"
        assert spec.__doc__ and "Added in" in spec.__doc__


@pytest.mark.slow
def test_the_plugin_test_example_of_the_docs_passes(repo_root, pytester):
    # docs/plugins.md shows how a plugin's own tests load it from its entry point.
    pytest.importorskip("factcov_quali", reason="the example plugin is installed by CI (./examples/factcov-quali)")
    doc = (repo_root / "docs" / "plugins.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(import pytest\nfrom factcov import plugins\n.*?)\n```", doc, re.S).group(1)
    pytester.makepyfile(test_from_the_docs=block)
    result = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


LAZY_SOURCE = """
    from factcov import hookimpl
    from factcov.plugins import lazy

    @hookimpl
    def register_domains(register):
        register(lazy("{name}", "{target}"))
"""


def test_a_lazy_registration_is_imported_only_when_its_name_is_asked_for(entry_points_dir, monkeypatch):
    (entry_points_dir / "lazy_fake_domain.py").write_text(textwrap.dedent(PLUGIN_SOURCE.format(
        cls="LazyFake", domain="lazyfake").replace("@hookimpl", "").replace("def register_domains", "def unused")))
    make_distribution(entry_points_dir, "fake_dist", "1.0", "fake", "fake_lazy_plugin",
                      LAZY_SOURCE.format(name="lazyfake", target="lazy_fake_domain:LazyFake"))
    monkeypatch.setenv("FACTCOV_PLUGINS", "fake")
    plugins.load_plugins()
    assert "lazyfake" in plugins.domains.names()
    import sys

    assert "lazy_fake_domain" not in sys.modules  # listed by name, not imported
    assert plugins.get_domain("lazyfake").description == "from an entry point"
    assert plugins.domains.plugin_of("lazyfake") == "fake"


@pytest.mark.parametrize(("target", "message"), [("no_such_module_xyz:Thing", "does not import"),
                                                 ("lazy_fake_domain2:LazyFake", "whose name is 'other'")])
def test_a_lazy_registration_that_does_not_hold_is_named_when_asked_for(entry_points_dir, monkeypatch, target,
                                                                         message):
    (entry_points_dir / "lazy_fake_domain2.py").write_text(textwrap.dedent(PLUGIN_SOURCE.format(
        cls="LazyFake", domain="other").replace("@hookimpl", "").replace("def register_domains", "def unused")))
    module = f"fake_lazy_plugin_{abs(hash(target))}"  # one module per case: a module is imported once
    make_distribution(entry_points_dir, "fake_dist", "1.0", "fake", module, LAZY_SOURCE.format(name="lazyfake", target=target))
    monkeypatch.setenv("FACTCOV_PLUGINS", "fake")
    with pytest.raises(PluginError, match=rf"plugin 'fake' registered domain 'lazyfake'.*{re.escape(message)}"):
        plugins.get_domain("lazyfake")


def test_a_lazy_name_clashes_with_a_class_of_the_same_name(entry_points_dir, monkeypatch):
    """A built-in's lazy 'f1' is taken as 'f1' is: a plugin registering it too is refused."""
    make_distribution(entry_points_dir, "fake_dist", "1.0", "fake", "fake_f1_plugin",
                      PLUGIN_SOURCE.format(cls="FakeF1", domain="f1"))
    monkeypatch.setenv("FACTCOV_PLUGINS", "fake")
    with pytest.raises(PluginError, match=r"domain 'f1' is registered twice: by plugin '(factcov.domains.f1.plugin|fake)'"):
        plugins.load_plugins()
