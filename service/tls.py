"""HTTPS for a table on a LAN: a phone gives the page its camera only on a secure page.

``sisepai serve --https`` makes a self-signed certificate on first run (kept under
``$SISEPAI_HOME/tls``, valid for localhost, this machine's name and its addresses) or uses the
``--certfile``/``--keyfile`` given. A browser warns once about a self-signed certificate; accept
it on each phone, or give a certificate a local CA signed.

>>> import tempfile
>>> cert, key = self_signed_certificate(Path(tempfile.mkdtemp()))
>>> cert.read_text().startswith("-----BEGIN CERTIFICATE-----"), oct(key.stat().st_mode & 0o777)
(True, '0o600')
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import socket
from pathlib import Path

from sisepai.engine.errors import SisepaiError

VALID_DAYS = 825


def local_addresses() -> list[str]:
    """This machine's IP addresses a phone on the LAN may use (best effort), and loopback."""
    found = {"127.0.0.1", "::1"}
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            found.add(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.add(info[4][0])
    except OSError:
        pass
    return sorted(a for a in found if "%" not in a)


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """``(cert.pem, key.pem)`` in ``folder``, made once and reused while valid for this machine."""
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
    except ModuleNotFoundError:
        raise SisepaiError("--https without --certfile needs the cryptography package: "
                           "pip install 'sisepai[service]'") from None
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    addresses = local_addresses()
    if cert_path.is_file() and key_path.is_file():
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        have = {str(ip) for ip in names.get_values_for_type(x509.IPAddress)}
        if cert.not_valid_after_utc > dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=7) and set(addresses) <= have:
            return cert_path, key_path
    folder.mkdir(parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    host = socket.gethostname()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"sisepai on {host}"[:64])])
    now = dt.datetime.now(dt.timezone.utc)
    san = [x509.DNSName("localhost"), x509.DNSName(host)] + [x509.IPAddress(ipaddress.ip_address(a)) for a in addresses]
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(days=VALID_DAYS))
            .add_extension(x509.SubjectAlternativeName(san), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                   serialization.NoEncryption()))
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path
