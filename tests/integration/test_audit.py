"""Every operator read of a customer's data and every change made for one is kept as an audit
record (the key by its id, what, about whom, the answer, when), before the answer leaves; the
dashboard lists them. Aggregates are not a customer's data, and no record holds a secret."""

from conftest import DevServer
from operator_key import OperatorKey
from dashboard_helpers import AuditRows, raw, sign_in

SUPPORT = OperatorKey("support-ana", ["customers:read", "dashboard"])
AUDITOR = OperatorKey("auditor", ["audit:read"])
ANALYST = OperatorKey("analyst", ["results:read"])


def test_reads_of_customers_data_are_kept_by_key_id_and_listed_newest_first():
    keys = [arg for key in (SUPPORT, AUDITOR, ANALYST) for arg in key.server_args()]
    server = DevServer(*keys, operator=False)
    try:
        assert server.call("GET", "/dashboard/profiles/p-audit", headers=SUPPORT.headers())[0] == 404
        assert server.call("GET", "/v1/app-store/consumption-requests?profile_id=p-other", headers=SUPPORT.headers())[0] == 200
        assert server.call("GET", "/v1/experiments/onboarding/results", headers=ANALYST.headers())[0] == 200
        assert server.call("GET", "/dashboard/profiles/p-audit", headers=ANALYST.headers())[0] == 403
        _, _, session, _ = sign_in(server, SUPPORT)
        status, _, page = raw(server, "GET", "/dashboard/audit", cookie=f"paywire_session={session}")
        assert status == 403, "support does not read the audit"
        status, _, page = server.call("GET", "/dashboard/audit", headers=AUDITOR.headers())
        assert status == 200
        text = page.decode()
        rows = AuditRows(text).rows
        assert [(row["key_id"], row["action"], row.get("subject", ""), row["status"]) for row in rows] == [
            ("support-ana", "sign in", "", "303"),
            ("support-ana", "GET /v1/app-store/consumption-requests", "profile_id=p-other", "200"),
            ("support-ana", "GET /dashboard/profiles/{profile_id}", "profile_id=p-audit", "404"),
        ], "results are aggregates, a refused request read nothing, the audit page itself is not a customer's"
        for key in (SUPPORT, AUDITOR, ANALYST):
            assert key.secret not in text
    finally:
        server.stop()


def test_changes_and_development_routes_are_kept_too():
    tooling = OperatorKey("ci-tool", ["notifications:write", "development", "audit:read"])
    server = DevServer(*tooling.server_args(), operator=False)
    try:
        status, _, _ = server.call("POST", "/v1/notifications/test-store",
                                   {"notification_id": "n-audit", "type": "REFUND", "original_transaction_id": "ot-none"},
                                   headers=tooling.headers())
        assert status == 404
        assert server.call("GET", "/_dev/events?profile_id=p-9", headers=tooling.headers())[0] == 200
        rows = AuditRows(server.call("GET", "/dashboard/audit", headers=tooling.headers())[2].decode()).rows
        assert [(row["action"], row.get("subject", "")) for row in rows] == [
            ("GET /_dev/events", "profile_id=p-9"), ("POST /v1/notifications/test-store", "")]
    finally:
        server.stop()
