"""A tiny HTTP site on 127.0.0.1 for the web tests: routes are functions, every request is kept.
It plays the webhook endpoint the Stripe stand-in posts to, and the pages the browser smoke
test opens."""
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Request:
    def __init__(self, method, target, headers, body):
        self.method, self.target, self.headers, self.body = method, target, headers, body
        split = urllib.parse.urlsplit(target)
        self.path, self.query = split.path, urllib.parse.parse_qs(split.query)

    def form(self):
        return urllib.parse.parse_qs(self.body.decode())


class LocalSite:
    """`routes`: {(method, path): function(Request) -> (status, {header: value}, body bytes or str)}.
    A request no route takes gets 404. `requests` keeps every request, in order."""

    def __init__(self, routes):
        self.routes, self.requests = dict(routes), []
        self.lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                request = Request(self.command, self.path, dict(self.headers.items()), self.rfile.read(length) if length else b"")
                with site.lock:
                    site.requests.append(request)
                route = site.routes.get((self.command, request.path))
                status, headers, body = route(request) if route else (404, {"Content-Type": "text/plain"}, "not found")
                data = body.encode() if isinstance(body, str) else body
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _answer

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), name="local-site", daemon=True)
        self._thread.start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def received(self, method, path):
        with self.lock:
            return [request for request in self.requests if request.method == method and request.path == path]

    def stop(self):
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)


def webhook_endpoint(statuses=()):
    """A site whose POST /webhook answers each status of `statuses` in turn, then 200."""
    left = list(statuses)
    lock = threading.Lock()

    def answer(request):
        with lock:
            status = left.pop(0) if left else 200
        return status, {"Content-Type": "application/json"}, '{"received": true}' if status == 200 else '{"error": "down"}'

    return LocalSite({("POST", "/webhook"): answer})
