"""The language the program speaks: English or French, by gettext catalogs.

Python's texts are written in English and marked where they are written: `_("…")` for a text used at
once, `N_("…")` for one kept to be translated where it is shown (the CLI's help), `ngettext` where the
number decides the form. A text with values is a template with named fields, translated whole and then
filled: `_("{path}: no such file").format(path=path)` (French puts the words in its own order).

The French catalog is `validator/locale/fr/LC_MESSAGES/casino-validator.po`, compiled into the `.mo`
file beside it that the wheel carries (`python scripts/i18n.py` extracts, merges and compiles; a test
fails on a text the catalog lacks, on an empty translation and on a `.mo` older than its `.po`).

The language is chosen, first that says: `--lang en|fr`, the configuration file's `lang` key, the
locale (`LC_ALL`, then `LC_MESSAGES`, then `LANG`: `fr_FR.UTF-8` is French), else English.
Rule messages and docs are not here: they are in the rulesets, in both languages (`message fr "…"`).
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "casino-validator"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "fr")
DEFAULT = "en"
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
INHERITED = "CASINO_VALIDATOR_LANG"


class _State:
    """The language in use and its catalog (one per process; a command sets it once it is chosen)."""

    def __init__(self) -> None:
        self.lang = ""
        self.by_option = False  # --lang chose: a configuration file named later does not change it
        self.catalog: gettext.NullTranslations = gettext.NullTranslations()


_STATE = _State()


def from_locale(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the locale names, if one this program speaks: the first of LC_ALL, LC_MESSAGES,
    LANG that is set and not empty decides (`fr_FR.UTF-8`, `fr` → fr; `C`, `de_DE` → None)."""
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = env.get(name, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            return code if code in LANGUAGES else None
    return None


def choose(
    option: str | None = None, config: str | None = None, environ: Mapping[str, str] | None = None
) -> str:
    """The language of a run: the option, else the configuration's key, else the locale, else English."""
    for given in (option, config):
        if given:
            return given
    return from_locale(environ) or DEFAULT


def use(lang: str) -> None:
    """Speak `lang` from now on (English: the texts as written)."""
    if lang == _STATE.lang:
        return
    if lang == DEFAULT:
        catalog: gettext.NullTranslations = gettext.NullTranslations()
    else:
        catalog = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])
    _STATE.lang = lang
    _STATE.catalog = catalog


def start(option: str | None, config: str | None) -> None:
    """A command starts: its language is --lang, else the configuration file's `lang`, else the locale,
    else English (set anew for each command: a test runs many in one process)."""
    use(choose(option, config))
    _STATE.by_option = option is not None
    # The processes this one starts (a local Dask cluster's workers) speak the same language: they
    # choose it lazily (`current`), where this variable comes first.
    os.environ[INHERITED] = _STATE.lang


def use_config(lang: str | None) -> None:
    """The `lang` of a configuration file named by --config, unless --lang chose."""
    if lang and not _STATE.by_option:
        use(lang)
        os.environ[INHERITED] = lang


def current() -> str:
    """The language in use; if no command chose it in this process, the one the command that started
    this process chose (a cluster's worker), else the locale's."""
    if not _STATE.lang:
        inherited = os.environ.get(INHERITED, "")
        use(inherited if inherited in LANGUAGES else choose())
    return _STATE.lang


def _(text: str) -> str:
    """`text` in the language in use (an empty text stays empty: gettext would give the header)."""
    if not text:
        return text
    if not _STATE.lang:
        current()
    return _STATE.catalog.gettext(text)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of `singular`/`plural` for `count`, in the language in use."""
    if not _STATE.lang:
        current()
    return _STATE.catalog.ngettext(singular, plural, count)


def N_(text: str) -> str:
    """Mark `text` for the catalog; it is translated where it is shown, with `_`."""
    return text


def pick(texts: Mapping[str, str], fallback: str = "") -> str:
    """The text of the language in use from a text given in several (a rule's message and docs, read
    from a ruleset as {"en": …, "fr": …}); English where the language in use has none."""
    return texts.get(current()) or texts.get(DEFAULT) or fallback
