"""The gettext catalogues (docs/translating.md): every language has every English message,
with the same placeholders and every plural form; every .mo is compiled from its .po."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bitbox import i18n

ROOT = Path(__file__).resolve().parent.parent
DOMAINS = [(ROOT / "outspeed" / "locale", "outspeed"), (ROOT / "lastonealive" / "locale", "lastonealive"),
           (ROOT / "bitbox" / "locale", "bitbox")]
TRANSLATIONS = [(d, dom, code) for d, dom in DOMAINS for code in i18n.LANGUAGES if code != "en"]


def _po(localedir: Path, domain: str, code: str):
    with open(i18n.catalogue_path(localedir, domain, code), "rb") as f:
        return read_po(f, domain=domain)


def test_the_domains_found_are_the_ones_checked_here():
    assert sorted(i18n._domains(ROOT)) == sorted(DOMAINS)


@pytest.mark.parametrize("localedir, domain", DOMAINS, ids=[d for _, d in DOMAINS])
def test_the_english_template_is_well_formed(localedir, domain):
    messages = i18n.english(localedir, domain)
    assert messages
    for key, m in messages.items():
        if m.plural is not None:
            assert m.count, f"{key}: a plural message names its count (#. count: {{name}})"
            assert m.count in i18n.placeholders(m.text) | i18n.placeholders(m.plural), key
        else:
            assert m.count is None, f"{key}: a count comment on a message with no plural"


@pytest.mark.parametrize("localedir, domain, code", TRANSLATIONS, ids=[f"{d}-{c}" for _, d, c in TRANSLATIONS])
def test_every_catalogue_has_every_english_message_with_its_placeholders_and_plural_forms(localedir, domain, code):
    english = i18n.english(localedir, domain)
    catalog = _po(localedir, domain, code)
    assert catalog.num_plurals == 2 and catalog.plural_forms == {
        "es": "nplurals=2; plural=(n != 1);", "de": "nplurals=2; plural=(n != 1);",
        "fr": "nplurals=2; plural=(n > 1);"}[code]
    found = {}
    for m in catalog:
        if not m.id:
            continue
        assert not m.fuzzy, f"{code} {m.context}: fuzzy (review it, then remove the flag)"
        found[m.context] = m
    assert set(found) == set(english), (sorted(set(english) - set(found)), sorted(set(found) - set(english)))
    for key, en in english.items():
        m = found[key]
        english_id = (en.text, en.plural) if en.plural is not None else en.text
        msgid = tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id
        assert msgid == english_id, f"{code} {key}: its msgid is not the English one (stale: update it)"
        forms = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
        assert len(forms) == (catalog.num_plurals if en.plural is not None else 1), f"{code} {key}: plural forms"
        for form in forms:
            assert form.strip(), f"{code} {key}: untranslated"
            assert i18n.placeholders(form) == en.fields(), f"{code} {key}: {form!r} has not {sorted(en.fields())}"


def test_no_compiled_catalogue_is_stale():
    assert i18n.stale(ROOT) == []


def test_a_changed_po_makes_its_mo_stale_and_compiling_fixes_it(tmp_path):
    for localedir, domain in DOMAINS:
        shutil.copytree(localedir, tmp_path / localedir.parent.name / "locale")
    po = tmp_path / "outspeed" / "locale" / "fr" / "LC_MESSAGES" / "outspeed.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Fioul"', 'msgstr "Carburant"'), encoding="utf-8")
    run = [sys.executable, "-m", "bitbox.i18n"]
    proc = subprocess.run(run + ["check", str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 1 and "outspeed/locale/fr/LC_MESSAGES/outspeed.mo differs" in proc.stderr
    assert subprocess.run(run + ["compile", str(tmp_path)], capture_output=True).returncode == 0
    assert subprocess.run(run + ["check", str(tmp_path)], capture_output=True).returncode == 0
    import gettext
    tr = gettext.translation("outspeed", str(tmp_path / "outspeed" / "locale"), languages=["fr"])
    assert tr.pgettext("ui.fuel", "fuel") == "Carburant"


def test_plural_forms_follow_each_language():
    from lastonealive.words import Lang
    assert [Lang(c).t("ui.score", n=0) for c in ("en", "es", "fr", "de")] == ["score 0", "0 puntos", "0 point",
                                                                              "0 Punkte"]
    from outspeed.words import Lang as OLang
    assert OLang("fr").event("markers_removed", {"count": 1, "zone": 3}) == "1 jeton Champ de force retiré de la rangée 3"
    assert OLang("fr").event("markers_removed", {"count": 2, "zone": 3}) == "2 jetons Champ de force retirés de la rangée 3"


def test_a_missing_translation_falls_back_to_english_and_an_unknown_key_to_itself(tmp_path):
    from outspeed.words import Lang
    localedir = tmp_path / "outspeed" / "locale"
    shutil.copytree(ROOT / "outspeed" / "locale", localedir)
    po = localedir / "fr" / "LC_MESSAGES" / "outspeed.po"
    text = po.read_text(encoding="utf-8")
    assert 'msgid "fuel"\nmsgstr "Fioul"' in text
    po.write_text(text.replace('msgid "fuel"\nmsgstr "Fioul"', 'msgid "fuel"\nmsgstr ""'), encoding="utf-8")
    i18n.compile_all(tmp_path)

    class Untranslated(Lang):
        LOCALEDIR = localedir

    assert (Untranslated("fr").t("ui.fuel"), Untranslated("fr").t("ui.zone")) == ("fuel", "rangée")
    assert Untranslated("fr").player("red") == "Rouge"             # the colours: the console's catalogue
    assert Lang("de").t("no.such.key") == "no.such.key"
    assert Lang("de").event("no_such_kind", {}) == "no_such_kind"


def test_an_unknown_language_is_refused():
    from outspeed.words import Lang
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        Lang("xx")
