"""The RHEL generic reader's colon-separated values (sshd's MaxStartups start:rate:full): one
reader serves a text that names the key and one that describes it, so both know what the daemon
does when the key is unset. Each text is written for this test.
"""

from __future__ import annotations

from ciso.agents.baseline.intent import ConfigSetting
from ciso.agents.baseline.knowledge import rhel_effects, rhel_generic


def _fields(settings: tuple[ConfigSetting, ...] | None) -> dict[int | None, tuple[object, bool]]:
    assert settings is not None
    return {s.part: (s.values, s.unset_complies) for s in settings if s.key == "MaxStartups"}


def test_a_named_triple_no_looser_than_the_default_lets_an_unset_key_comply() -> None:
    # sshd refuses from 10 pending and drops everything at 100 when nothing sets MaxStartups
    text = "On our SSH daemons the MaxStartups value may be at most 12:30:150."
    assert _fields(rhel_generic.read(text)) == {0: ((12,), True), 2: ((150,), True)}


def test_a_named_triple_tighter_than_the_default_needs_the_key_set() -> None:
    text = "For ssh logins, MaxStartups must read 4:50:40 or stricter."
    assert _fields(rhel_generic.read(text)) == {0: ((4,), False), 2: ((40,), False)}


def test_a_triple_on_a_key_without_field_defaults_never_complies_unset() -> None:
    sshd = rhel_generic.family_named("sshd")
    other = rhel_generic.ConfigFamily(sshd.name, sshd.keys, context=sshd.context)
    read = rhel_generic.colon_fields(other, "MaxStartups", "ssh MaxStartups of 20:30:200")
    assert read is not None
    assert [(s.part, s.values, s.unset_complies) for s in read] == [
        (0, (20,), False),
        (2, (200,), False),
    ]


def test_the_described_and_the_named_reading_of_one_triple_agree() -> None:
    text = "The ssh service must begin refusing floods: MaxStartups 8:30:90 at the loosest."
    described = rhel_effects._max_startups(text)
    assert described == rhel_generic.colon_fields(
        rhel_generic.family_named("sshd"), "MaxStartups", text
    )
    assert _fields(described) == {0: ((8,), False), 2: ((90,), False)}
