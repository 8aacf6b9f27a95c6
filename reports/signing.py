"""Ed25519 detached signatures over the canonical JSON report (``cryptography`` package).

Keys are PEM files: the private key PKCS#8 (unencrypted, written with mode 0600), the
public key SubjectPublicKeyInfo.  A signature file (``report.json.sig``) holds the
64-byte Ed25519 signature of the report file's exact bytes, base64-encoded, then a
newline.  Ed25519 signatures are deterministic: the same key and report give the same
signature file.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from pathlib import Path
from typing import Any

from pokercert.reference.errors import InputError

SIG_SUFFIX = ".sig"
PUB_SUFFIX = ".pub"


def _crypto() -> Any:
    try:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ed25519
    except ImportError:
        raise InputError(
            "signing needs the 'cryptography' package: "
            "pip install 'pokercert[sign]' (or pip install cryptography)"
        ) from None
    return serialization, ed25519


def keygen(private_path: Path, force: bool = False) -> tuple[Path, Path]:
    """Write a new Ed25519 key pair: ``private_path`` and ``private_path.pub``."""
    serialization, ed25519 = _crypto()
    private_path = Path(private_path)
    public_path = private_path.with_name(private_path.name + PUB_SUFFIX)
    for p in (private_path, public_path):
        if p.exists() and not force:
            raise InputError(f"{p} exists; pass --force to overwrite it")
    key = ed25519.Ed25519PrivateKey.generate()
    private_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public_pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    private_path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(private_pem)
    public_path.write_bytes(public_pem)
    return private_path, public_path


def _load(path: Path, private: bool) -> Any:
    serialization, ed25519 = _crypto()
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read key ({exc.strerror})") from None
    try:
        key = (
            serialization.load_pem_private_key(data, password=None)
            if private
            else serialization.load_pem_public_key(data)
        )
    except (ValueError, TypeError) as exc:
        kind = "private" if private else "public"
        raise InputError(f"{path}: not a PEM {kind} key ({exc})") from None
    wanted = ed25519.Ed25519PrivateKey if private else ed25519.Ed25519PublicKey
    if not isinstance(key, wanted):
        raise InputError(f"{path}: not an Ed25519 key")
    return key


def sign(data: bytes, private_key: Path) -> bytes:
    """The signature file's content for ``data``."""
    return base64.b64encode(_load(private_key, private=True).sign(data)) + b"\n"


def verify_signature(data: bytes, signature_file: bytes, public_key: Path) -> str:
    """Check a signature; returns ``''`` if it holds, else why not."""
    from cryptography.exceptions import InvalidSignature

    key = _load(public_key, private=False)
    try:
        raw = base64.b64decode(signature_file.strip(), validate=True)
    except (binascii.Error, ValueError):
        return "the signature file is not base64"
    try:
        key.verify(raw, data)
    except InvalidSignature:
        return "the signature does not match this report and key"
    return ""


def fingerprint(public_key: Path) -> str:
    """SHA-256 of the raw public key, to name which key signed."""
    serialization, _ = _crypto()
    raw = _load(public_key, private=False).public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    return "sha256:" + hashlib.sha256(raw).hexdigest()
