"""Kyverno's image verification library (ImageValidatingPolicy): ``verifyImageSignatures``,
``verifyAttestationSignatures``, ``extractPayload`` and ``getImageData``. Each needs the image's
signatures, attestations or manifest from its registry and the policy's keys; offline there is no
registry, and the Kyverno CLI's tests do not provide this data either (it fetches it), so each
call fails with an ``unsupported`` error: a policy that relies on one gets an ``error`` result,
never a silent pass."""

from __future__ import annotations

from typing import Any

#: the text every call's error carries; ivpol.py reports it as the result's message
UNSUPPORTED_VERIFICATION = "unsupported: image signature verification offline"
UNSUPPORTED_IMAGE_DATA = "unsupported: image registry data offline"


def verify_image_signatures(image: str, _attestors: Any) -> int:
    raise ValueError(f"{UNSUPPORTED_VERIFICATION} (verifyImageSignatures of {image})")


def verify_attestation_signatures(image: str, _attestation: Any, _attestors: Any) -> int:
    raise ValueError(f"{UNSUPPORTED_VERIFICATION} (verifyAttestationSignatures of {image})")


def extract_payload(image: str, _attestation: Any) -> Any:
    raise ValueError(f"{UNSUPPORTED_VERIFICATION} (extractPayload of {image})")


def get_image_data(image: str) -> Any:
    raise ValueError(f"{UNSUPPORTED_IMAGE_DATA} (getImageData of {image})")


FUNCTIONS = {
    "verifyImageSignatures": verify_image_signatures,
    "verifyAttestationSignatures": verify_attestation_signatures,
    "extractPayload": extract_payload,
    "getImageData": get_image_data,
}
