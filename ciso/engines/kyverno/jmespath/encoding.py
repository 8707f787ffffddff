"""Encoding functions: base64_decode, base64_encode, parse_json, parse_yaml, sha256, sha1, md5,
x509_decode."""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import TYPE_CHECKING, Any

import yaml
from jmespath import functions

from ciso.engines.kyverno.jmespath.strings import FunctionError
from itbench import jsonsafe

if TYPE_CHECKING:  # the stubs name the shape of a signature argument
    from jmespath.functions import _Signature

_STRING: _Signature = {"types": ["string"]}


def _name_fields(name: Any) -> dict[str, Any]:
    """A certificate name the way Go's pkix.Name encodes to JSON (the fields policies read)."""
    from cryptography.x509.oid import NameOID

    def values(oid: Any) -> list[str] | None:
        found = [str(a.value) for a in name.get_attributes_for_oid(oid)]
        return found or None

    common = values(NameOID.COMMON_NAME)
    return {
        "Country": values(NameOID.COUNTRY_NAME),
        "Organization": values(NameOID.ORGANIZATION_NAME),
        "OrganizationalUnit": values(NameOID.ORGANIZATIONAL_UNIT_NAME),
        "Locality": values(NameOID.LOCALITY_NAME),
        "Province": values(NameOID.STATE_OR_PROVINCE_NAME),
        "StreetAddress": values(NameOID.STREET_ADDRESS),
        "PostalCode": values(NameOID.POSTAL_CODE),
        "SerialNumber": (values(NameOID.SERIAL_NUMBER) or [""])[0],
        "CommonName": common[0] if common else "",
    }


def x509_decode(pem: str) -> dict[str, Any]:
    """The fields of a PEM certificate or CSR that Kyverno's x509_decode exposes and policies
    read: names, validity, serial, RSA public key (N as a decimal string, E), SANs, CA flag."""
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives.asymmetric import rsa
    except ImportError:  # pragma: no cover - cryptography ships with ansible-core
        raise FunctionError("unsupported: x509_decode needs the cryptography package") from None
    data = pem.encode()
    try:
        if b"CERTIFICATE REQUEST" in data:
            request = x509.load_pem_x509_csr(data)
            key = request.public_key()
            if not isinstance(key, rsa.RSAPublicKey):
                raise FunctionError("x509_decode: certificate should use rsa algorithm")
            numbers = key.public_numbers()
            return {
                "Subject": _name_fields(request.subject),
                "PublicKey": {"N": str(numbers.n), "E": numbers.e},
                "PublicKeyAlgorithm": 1,
                "Version": 0,
            }
        cert = x509.load_pem_x509_certificate(data)
    except ValueError as exc:
        raise FunctionError(f"x509_decode: failed to decode PEM block ({exc})") from None
    key = cert.public_key()
    if not isinstance(key, rsa.RSAPublicKey):
        raise FunctionError("x509_decode: certificate should use rsa algorithm")
    numbers = key.public_numbers()
    try:
        names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        dns = names.get_values_for_type(x509.DNSName) or None
        emails = names.get_values_for_type(x509.RFC822Name) or None
    except x509.ExtensionNotFound:
        dns = emails = None
    try:
        is_ca = cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    except x509.ExtensionNotFound:
        is_ca = False
    return {
        "Version": cert.version.value + 1,
        "SerialNumber": cert.serial_number,
        "Issuer": _name_fields(cert.issuer),
        "Subject": _name_fields(cert.subject),
        "NotBefore": cert.not_valid_before_utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "NotAfter": cert.not_valid_after_utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "PublicKey": {"N": str(numbers.n), "E": numbers.e},
        "PublicKeyAlgorithm": 1,
        "DNSNames": dns,
        "EmailAddresses": emails,
        "IsCA": is_ca,
    }


class EncodingFunctions:
    @functions.signature(_STRING)
    def _func_base64_decode(self, s: str) -> str:
        try:
            return base64.b64decode(s, validate=True).decode("utf-8", errors="replace")
        except (binascii.Error, ValueError) as exc:
            raise FunctionError(f"base64_decode: {exc}") from None

    @functions.signature(_STRING)
    def _func_base64_encode(self, s: str) -> str:
        return base64.b64encode(s.encode()).decode()

    @functions.signature(_STRING)
    def _func_parse_json(self, s: str) -> Any:
        try:
            return jsonsafe.loads(s, "parse_json")
        except ValueError as exc:
            raise FunctionError(f"parse_json: {exc}") from None

    @functions.signature(_STRING)
    def _func_parse_yaml(self, s: str) -> Any:
        try:
            return yaml.safe_load(s)
        except yaml.YAMLError as exc:
            raise FunctionError(f"parse_yaml: {exc}") from None

    @functions.signature(_STRING)
    def _func_sha256(self, s: str) -> str:
        return hashlib.sha256(s.encode()).hexdigest()

    @functions.signature(_STRING)
    def _func_sha1(self, s: str) -> str:
        return hashlib.sha1(s.encode(), usedforsecurity=False).hexdigest()

    @functions.signature(_STRING)
    def _func_md5(self, s: str) -> str:
        return hashlib.md5(s.encode(), usedforsecurity=False).hexdigest()

    @functions.signature(_STRING)
    def _func_x509_decode(self, s: str) -> dict[str, Any]:
        return x509_decode(s)
