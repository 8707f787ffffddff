"""Kyverno's user library: ``parseServiceAccount(username)`` splits
``system:serviceaccount:<namespace>:<name>`` into ``{Namespace, Name}``; any other user name
gives empty fields."""

from __future__ import annotations

PREFIX = "system:serviceaccount:"


def parse_service_account(username: str) -> dict[str, str]:
    if username.startswith(PREFIX):
        namespace, sep, name = username[len(PREFIX) :].partition(":")
        if sep and namespace and name and ":" not in name:
            return {"Namespace": namespace, "Name": name}
    return {"Namespace": "", "Name": ""}


FUNCTIONS = {"parseServiceAccount": parse_service_account}
