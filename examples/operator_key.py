"""An operator key for a server the demos and tests start themselves.

Operator routes (experiment results, the dashboard, the test store's notifications, the
development routes of `--dev`) take a secret operator key, `authorization: Bearer <key>`,
never the app's public key. The server is given only the key's SHA-256 and its scopes
(`--operator-key-sha256 ID:HEX:SCOPES`); the key itself is made fresh for each run and stays
in this process, as an operator's stays in their vault.
"""
import hashlib
import secrets

#: Every scope an operator key can hold (docs/operations/security.md).
ALL_SCOPES = ("results:read", "customers:read", "customers:write", "dashboard", "notifications:write", "development", "audit:read")


class OperatorKey:
    """A fresh random operator key, its id and scopes."""

    def __init__(self, key_id="dev", scopes=ALL_SCOPES):
        self.id = key_id
        self.scopes = tuple(scopes)
        self.secret = secrets.token_urlsafe(32)

    def server_args(self):
        """The arguments that make a server accept this key."""
        digest = hashlib.sha256(self.secret.encode()).hexdigest()
        return ["--operator-key-sha256", f"{self.id}:{digest}:{','.join(self.scopes)}"]

    def headers(self):
        """The header an operator request carries."""
        return {"authorization": "Bearer " + self.secret}
