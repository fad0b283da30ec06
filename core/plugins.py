"""The plugin manager: built-in plugins and entry points, loaded lazily, into registries.

Built-ins are loaded exactly as third-party plugins are (modules implementing the
hooks), from ``DEFAULT_PLUGINS``; third-party ones come from the entry-point group
``factcov``. ``FACTCOV_PLUGINS`` (comma-separated entry-point names; empty for none)
limits which installed plugins load. A plugin that fails to import or to register
prints a warning and is skipped, unless ``FACTCOV_STRICT_PLUGINS=1``.
"""

from __future__ import annotations

import difflib
import importlib
import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, Generic, TypeVar

import pluggy

from factcov import hookspecs
from factcov.errors import SIGNALLED, PluginError, UnknownNameError

DEFAULT_PLUGINS: tuple[str, ...] = (
    "factcov.domains.f1.plugin",
    "factcov.domains.weather.plugin",
    "factcov.domains.rag.plugin",
    "factcov.extractors.llm_plugin",
)
ENTRY_POINT_GROUP = "factcov"

T = TypeVar("T")

pm = pluggy.PluginManager("factcov")
pm.add_hookspecs(hookspecs)


@dataclass
class PluginInfo:
    name: str
    version: str | None
    hooks: list[str]
    builtin: bool


@dataclass(frozen=True)
class Lazy:
    """A class registered by name and import path (``lazy("f1", "factcov.domains.f1.domain:F1Domain")``),
    imported when the name is first asked for: a run of one domain imports none of the
    others' code (the built-in plugins register this way). Checked as a class is, then.

    ``listing``: what `factcov domains` shows of it (``Registry.listed``), declared beside
    the registration so that listing the domains imports none of them; checked against the
    class when it is imported (a listing that says otherwise is a ``PluginError``)."""

    name: str
    target: str
    listing: Mapping[str, Any] | None = field(default=None, compare=False, hash=False)

    def load(self) -> type:
        module, _, attribute = self.target.partition(":")
        return getattr(importlib.import_module(module), attribute)


def lazy(name: str, target: str, listing: Mapping[str, Any] | None = None) -> Lazy:
    """What a ``register_domains``/``register_extractors`` hook may pass to ``register``
    instead of the class: its name and ``"module:Class"``, and optionally its ``listing``
    (for a domain: description, version, languages, tasks, claim_types (their names) and
    default_extractor; for an extractor: domains), which `factcov domains` then reads
    without importing the class."""
    return Lazy(name, target, listing)


def listing_of(cls: type, fields: Sequence[str]) -> dict[str, Any]:
    """The ``fields`` of a registered class as a listing shows them: sequences as tuples,
    claim types by name."""
    out: dict[str, Any] = {}
    for name in fields:
        value = getattr(cls, name, None)
        if name == "claim_types":
            value = tuple(claim_type.name for claim_type in value or ())
        elif isinstance(value, (list, tuple)):
            value = tuple(value)
        out[name] = value
    return out


@dataclass
class Registry(Generic[T]):
    """Registered classes by ``name``; remembers which plugin registered each."""

    kind: str
    entries: dict[str, tuple[type[T], str]] = field(default_factory=dict)
    # Class attributes a registered class must set (a domain's default extractor): checked
    # when it registers, so the plugin is named then rather than an AttributeError later.
    required: tuple[str, ...] = ()
    # The class registered ones derive from, as "module:Class" (imported when checking).
    base: str = ""
    # What `factcov domains` shows of each (``listing``): class attributes.
    listed: tuple[str, ...] = ()

    def check(self, cls: type[T] | Lazy, plugin: str) -> None:
        if isinstance(cls, Lazy):  # checked when it is imported (``get``)
            return
        if self.base:
            module, _, base_name = self.base.partition(":")
            base = getattr(importlib.import_module(module), base_name)
            if not isinstance(cls, type):
                raise PluginError(f"plugin '{plugin}' registered a {type(cls).__name__} object as a {self.kind}: "
                                  f"register the class itself, register({type(cls).__name__})")
            if not issubclass(cls, base):
                raise PluginError(f"plugin '{plugin}' registered {cls.__module__}.{cls.__qualname__} as a "
                                  f"{self.kind}: it must subclass {module}.{base_name}")
        name = getattr(cls, "name", cls.__name__)
        for attribute in self.required:
            if not isinstance(getattr(cls, attribute, None), str) or not getattr(cls, attribute):
                raise PluginError(
                    f"plugin '{plugin}' registered {self.kind} '{name}' ({cls.__module__}.{cls.__qualname__}) "
                    f"without `{attribute}`: set the class attribute (see docs/plugin-reference.md)"
                )

    def add(self, cls: type[T], plugin: str) -> None:
        name = getattr(cls, "name", None)
        if not isinstance(name, str) or not name:
            raise PluginError(f"plugin '{plugin}' registered a {self.kind} without a name: {cls!r}")
        if name in self.entries:
            other = self.entries[name][1]
            raise PluginError(
                f"{self.kind} '{name}' is registered twice: by plugin '{other}' and by plugin "
                f"'{plugin}'; uninstall one of them or rename its {self.kind}"
            )
        self.entries[name] = (cls, plugin)

    def get(self, name: str) -> type[T]:
        if name not in self.entries:
            error = UnknownNameError(self.kind, name, list(self.entries))
            if _failed:  # the name may be one a plugin that did not load would have registered
                failed = "; ".join(f"'{plugin}': {why}" for plugin, why in sorted(_failed.items()))
                error.args = (f"{error}; plugin(s) that failed to load: {failed}",)
            raise error
        cls, plugin = self.entries[name]
        if isinstance(cls, Lazy):
            cls = self._imported(cls, plugin)
            self.entries[name] = (cls, plugin)
        return cls

    def _imported(self, entry: Lazy, plugin: str) -> type[T]:
        """The class of a lazy entry, checked as a class registered directly is."""
        try:
            cls = entry.load()
        except (ImportError, AttributeError) as exc:
            raise PluginError(f"plugin '{plugin}' registered {self.kind} '{entry.name}' as {entry.target}, "
                              f"which does not import: {type(exc).__name__}: {exc}") from exc
        self.check(cls, plugin)
        if getattr(cls, "name", None) != entry.name:
            raise PluginError(f"plugin '{plugin}' registered {self.kind} '{entry.name}' as {entry.target}, "
                              f"whose name is {getattr(cls, 'name', None)!r}")
        if entry.listing is not None:
            self._check_listing(entry, cls, plugin)
        return cls

    def _check_listing(self, entry: Lazy, cls: type, plugin: str) -> None:
        """A declared listing says what the class says, field by field."""
        real = listing_of(cls, self.listed)
        declared = {name: tuple(value) if isinstance(value, list) else value
                    for name, value in entry.listing.items()}  # type: ignore[union-attr]
        wrong = [name for name in self.listed if declared.get(name) != real[name]]
        if wrong:
            raise PluginError(f"plugin '{plugin}' lists {self.kind} '{entry.name}' with {', '.join(wrong)} "
                              f"other than {entry.target} has: {wrong[0]} = {real[wrong[0]]!r}, listed as "
                              f"{declared.get(wrong[0])!r}")

    def listing(self, name: str) -> dict[str, Any]:
        """What `factcov domains` shows of ``name`` (the fields ``listed``): the listing its
        lazy registration declares, else read off its class (imported for it)."""
        entry = self.entries.get(name, (None, ""))[0]
        if isinstance(entry, Lazy) and entry.listing is not None:
            return {field_name: entry.listing.get(field_name) for field_name in self.listed}
        return listing_of(self.get(name), self.listed)

    def plugin_of(self, name: str) -> str:
        if name not in self.entries:
            self.get(name)  # the error naming the known names
        return self.entries[name][1]

    def names(self) -> list[str]:
        return sorted(self.entries)


_state: dict[str, Any] = {"loaded": False, "registered": False}
domains: Registry[Any] = Registry("domain", required=("default_extractor",), base="factcov.domain:Domain",
                                  listed=("description", "version", "languages", "tasks", "claim_types",
                                          "default_extractor"))
extractors: Registry[Any] = Registry("extractor", base="factcov.extractor:Extractor", listed=("domains",))
_versions: dict[str, str | None] = {}
# Plugins skipped with a warning, and why: named again when a name they would have
# registered is asked for.
_failed: dict[str, str] = {}


def _strict() -> bool:
    return os.environ.get("FACTCOV_STRICT_PLUGINS", "") not in ("", "0", "false", "no")


def _broken(plugin: str, exc: BaseException) -> None:
    message = f"plugin '{plugin}' failed to load and was skipped: {type(exc).__name__}: {exc}"
    _failed[plugin] = f"{type(exc).__name__}: {exc}"
    if _strict():
        raise PluginError(message + " (FACTCOV_STRICT_PLUGINS is set)") from exc
    warnings.warn(message, RuntimeWarning, stacklevel=3)


def _allowed_entry_points() -> set[str] | None:
    value = os.environ.get("FACTCOV_PLUGINS")
    if value is None:
        return None
    return {name.strip() for name in value.split(",") if name.strip()}


def load_plugins() -> None:
    """Register built-in and entry-point plugins, then fill the registries. Idempotent."""
    if _state["loaded"]:
        return
    register_plugins()
    _state["loaded"] = True
    _fill(domains, "register_domains")
    _fill(extractors, "register_extractors")


def register_plugins() -> None:
    """Import and register the built-in and entry-point plugins, without filling the
    registries: a plugin's module is small, its hooks import its domain and extractors
    (grammars, parsers), which only a command that uses them needs. Idempotent."""
    if _state["registered"]:
        return
    _state["registered"] = True
    for module_name in DEFAULT_PLUGINS:
        if pm.get_plugin(module_name) is None:
            pm.register(importlib.import_module(module_name), name=module_name)
            _versions[module_name] = None
    allowed = _allowed_entry_points()
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        if allowed is not None and ep.name not in allowed:
            continue
        if pm.get_plugin(ep.name) is not None:
            continue
        try:
            module = ep.load()
            pm.register(module, name=ep.name)
            check_hooks(ep.name)
        except BaseException as exc:  # a broken plugin (even sys.exit or KeyboardInterrupt at import) must not break factcov
            if pm.get_plugin(ep.name) is not None:
                pm.unregister(name=ep.name)
            if isinstance(exc, SIGNALLED):  # SIGTERM/SIGINT while it imported: the user's, not the plugin's
                raise
            _broken(ep.name, exc)
            continue
        _versions[ep.name] = ep.dist.version if ep.dist is not None else None
    _check_allowed_exist(allowed)


def _check_allowed_exist(allowed: set[str] | None) -> None:
    """FACTCOV_PLUGINS naming a plugin that is not installed is a typo, not a wish: say so."""
    if not allowed:
        return
    installed = {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)}
    missing = sorted(allowed - installed - {name for name, _ in pm.list_name_plugin()})
    if missing:
        raise UnknownNameError("plugin in FACTCOV_PLUGINS", ", ".join(missing), sorted(installed))


def _command_names(app: Any) -> list[str]:
    names = [info.name or info.callback.__name__.replace("_", "-") for info in app.registered_commands]
    return names + [info.name for info in app.registered_groups if info.name]


def add_commands(app: Any) -> None:
    """Let each plugin add its command group; a plugin whose hook fails, or that would
    replace a command already there (``score``...), is skipped with a warning. The
    registries are not filled for it (``factcov --help`` imports no domain's code)."""
    register_plugins()
    for impl in reversed(pm.hook.register_commands.get_hookimpls()):
        before = (len(app.registered_commands), len(app.registered_groups))
        taken = set(_command_names(app))
        try:
            impl.function(**_accepted(impl, {"app": app}))
        except BaseException as exc:  # as at import: a hook's sys.exit(0) made every command exit 0 unrun
            if isinstance(exc, SIGNALLED):
                raise
            _broken(impl.plugin_name, exc)
            continue
        added = [info.name or info.callback.__name__.replace("_", "-") for info in app.registered_commands[before[0]:]]
        added += [info.name for info in app.registered_groups[before[1]:] if info.name]
        clash = sorted(set(added) & taken)
        if clash:
            del app.registered_commands[before[0]:]
            del app.registered_groups[before[1]:]
            _broken(impl.plugin_name, PluginError(f"it would replace the command(s) {', '.join(clash)}"))


def _fill(registry: Registry[Any], hook_name: str) -> None:
    """Call each plugin's hook on its own, so every name is traced to its plugin."""
    hook = getattr(pm.hook, hook_name)
    for impl in reversed(hook.get_hookimpls()):
        plugin = impl.plugin_name
        staged: list[type] = []
        try:
            impl.function(**_accepted(impl, {"register": staged.append}))
            for cls in staged:
                registry.check(cls, plugin)
        except BaseException as exc:  # SystemExit and KeyboardInterrupt too, as at import
            if isinstance(exc, SIGNALLED):
                raise
            _broken(plugin, exc)
            continue
        for cls in staged:
            registry.add(cls, plugin)


def _accepted(impl: pluggy.HookImpl, arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments an implementation takes: pluggy read its ``argnames`` when it registered
    (an implementation may accept fewer than the spec, so hooks only ever gain arguments)."""
    return {k: v for k, v in arguments.items() if k in impl.argnames}


def reset() -> None:
    """Forget the registries so the next access loads again (tests use it)."""
    _state["loaded"] = _state["registered"] = False
    _failed.clear()
    domains.entries.clear()
    extractors.entries.clear()


def check_hooks(name: str) -> None:
    """``pm.check_pending()`` for one plugin: an unknown (misspelled) hook blames the
    plugin that implements it, never a plugin loaded after it."""
    plugin = pm.get_plugin(name)
    for caller in pm.get_hookcallers(plugin) or []:
        if caller.has_spec():
            continue
        if any(impl.plugin is plugin and not impl.optionalhook for impl in caller.get_hookimpls()):
            known = sorted(n for n in dir(hookspecs) if n.startswith("register_"))
            close = difflib.get_close_matches(caller.name, known, n=1)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise PluginError(f"plugin '{name}' implements '{caller.name}', which is no factcov hook; "
                              f"{hint}(hooks: {', '.join(known)})")


def register_plugin(module: object, name: str) -> None:
    """Register a plugin object by hand (tests and notebooks); call ``unregister_plugin`` after.

    A module with a misspelled hook is refused here, naming it (PluginError)."""
    pm.register(module, name=name)
    try:
        check_hooks(name)
    except PluginError:
        pm.unregister(name=name)
        raise
    reset()


def unregister_plugin(name: str) -> None:
    plugin = pm.get_plugin(name)
    if plugin is not None:
        pm.unregister(plugin)
    reset()


def get_domain(name: str) -> Any:
    """An instance of the registered domain ``name``."""
    load_plugins()
    return domains.get(name)()


def get_extractor(name: str, language: str, **options: Any) -> Any:
    load_plugins()
    cls = extractors.get(name)
    if language not in cls.languages:
        raise UnknownNameError(f"language of extractor '{name}'", language, cls.languages)
    return cls(language=language, **options)


def serves(served: Sequence[str] | None, domain: str) -> bool:
    """Whether an extractor whose ``domains`` are ``served`` reads ``domain``'s texts (its
    own, or any domain's: ``"*"``)."""
    return domain in (served or ()) or "*" in (served or ())


def extractors_for(domain: str) -> list[str]:
    """The names of the extractors that read ``domain``'s texts, from their listings (a lazy
    registration with a listing is not imported for it)."""
    return [name for name in extractors.names() if serves(extractors.listing(name)["domains"], domain)]


def plugin_infos() -> list[PluginInfo]:
    load_plugins()
    infos = []
    for name, plugin in pm.list_name_plugin():
        hooks = sorted(impl.name for impl in pm.get_hookcallers(plugin) or [])
        infos.append(PluginInfo(name, _versions.get(name), hooks, name in DEFAULT_PLUGINS))
    return sorted(infos, key=lambda info: (not info.builtin, info.name))

