"""A local OpenID Connect provider with Google's endpoints and wire format (discovery,
authorization code + PKCE S256, token endpoint with an RS256 ID token, JWKS), for tests."""

from __future__ import annotations

import base64
import hashlib
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from joserfc import jwt
from joserfc.jwk import KeySet, RSAKey
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

ISSUER = "https://accounts.google.test"


@dataclass
class FakeGoogle:
    client_id: str
    client_secret: str
    key: RSAKey = field(
        default_factory=lambda: RSAKey.generate_key(2048, parameters={"kid": "test-key"})
    )
    codes: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Claims for the next sign-in.
    person: dict[str, Any] = field(default_factory=dict)
    tamper_audience: bool = False

    def issue_code(self, authorize_query: dict[str, str]) -> str:
        """What Google does when the person consents: remember the request, hand back a code."""
        code = secrets.token_urlsafe(16)
        self.codes[code] = dict(authorize_query)
        return code

    def app(self) -> Starlette:
        async def discovery(_: Request) -> JSONResponse:
            return JSONResponse(
                {
                    "issuer": ISSUER,
                    "authorization_endpoint": f"{ISSUER}/o/oauth2/v2/auth",
                    "token_endpoint": f"{ISSUER}/token",
                    "jwks_uri": f"{ISSUER}/oauth2/v3/certs",
                    "id_token_signing_alg_values_supported": ["RS256"],
                    "code_challenge_methods_supported": ["plain", "S256"],
                }
            )

        async def certs(_: Request) -> JSONResponse:
            return JSONResponse(KeySet([self.key]).as_dict(private=False))

        async def token(request: Request) -> JSONResponse:
            form = await request.form()
            grant = self.codes.pop(str(form.get("code")), None)
            if grant is None:
                return JSONResponse({"error": "invalid_grant"}, status_code=400)
            verifier = str(form.get("code_verifier", ""))
            challenge = (
                base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
                .rstrip(b"=")
                .decode()
            )
            if grant.get("code_challenge_method") != "S256" or challenge != grant.get(
                "code_challenge"
            ):
                return JSONResponse(
                    {"error": "invalid_grant", "error_description": "PKCE"}, status_code=400
                )
            authorization = request.headers.get("authorization", "")
            basic = base64.b64encode(f"{self.client_id}:{self.client_secret}".encode()).decode()
            if (
                authorization != f"Basic {basic}"
                and form.get("client_secret") != self.client_secret
            ):
                return JSONResponse({"error": "invalid_client"}, status_code=401)
            now = int(time.time())
            claims = {
                "iss": ISSUER,
                "aud": "someone-else" if self.tamper_audience else self.client_id,
                "iat": now,
                "exp": now + 600,
                "nonce": grant.get("nonce"),
                **self.person,
            }
            id_token = jwt.encode({"alg": "RS256", "kid": "test-key"}, claims, self.key)
            return JSONResponse(
                {
                    "access_token": secrets.token_urlsafe(16),
                    "token_type": "Bearer",
                    "expires_in": 3600,
                    "id_token": id_token,
                    "scope": "openid email profile",
                }
            )

        return Starlette(
            routes=[
                Route("/.well-known/openid-configuration", discovery),
                Route("/oauth2/v3/certs", certs),
                Route("/token", token, methods=["POST"]),
            ]
        )
