"""Headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe: the
browser reads NUL-separated JSON on fd 3 and writes on fd 4), so the tests need no websocket or
browser-driver package. --dump-dom cannot be used for search: Material's search index is built
in a web worker, which --virtual-time-budget does not wait for."""
import base64
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def _above_nine(fd):
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


def chromium_path():
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    def __init__(self, width=1280, height=900):
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # Above 9, so that moving them onto 3 and 4 cannot overwrite one with the other.
        to_browser_r, from_browser_w = (_above_nine(fd) for fd in (to_browser_r, from_browser_w))
        self._profile = tempfile.mkdtemp(prefix="paywire-chromium-")
        # The protocol's fds are 3 (commands in) and 4 (answers out); a small Python trampoline
        # moves the pipes there (subprocess closes unlisted fds after a preexec_fn could, and
        # dash's redirections take single-digit fds only).
        plumb = "import os, sys; os.dup2(%d, 3); os.dup2(%d, 4); os.execv(sys.argv[1], sys.argv[1:])" % (
            to_browser_r, from_browser_w)
        self._process = subprocess.Popen(
            [sys.executable, "-c", plumb, chromium_path(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--remote-debugging-pipe", "--user-data-dir=" + self._profile, "--window-size=%d,%d" % (width, height),
             # Offline, as a reader without a network: no name resolves but the loopback's, so a
             # page that needed another host would show it.
             "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
             "about:blank"],
            pass_fds=(to_browser_r, from_browser_w),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer, self._next_id = b"", 0
        page = next(t for t in self.send("Target.getTargets")["targetInfos"] if t["type"] == "page")
        self._session = self.send("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.send("Page.enable", session=True)

    def _read_message(self):
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_browser, 65536)
            if not chunk:
                raise RuntimeError("chromium closed its DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, session=False, **params):
        """One command; events arriving meanwhile are skipped (the tests poll the page instead)."""
        self._next_id += 1
        command = {"id": self._next_id, "method": method, "params": params}
        if session:
            command["sessionId"] = self._session
        os.write(self._to_browser, json.dumps(command).encode() + b"\0")
        while True:
            message = self._read_message()
            if message.get("id") == self._next_id:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message["result"]

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        return result["result"].get("value")

    def wait_for(self, expression, timeout=20.0):
        """Polls a JS expression until it is truthy; returns its last value."""
        deadline = time.monotonic() + timeout
        value = None
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.2)
        return value

    def open(self, url):
        self.send("Page.navigate", session=True, url=url)
        self.wait_for("document.readyState === 'complete'")

    def screenshot(self, path, clip=None):
        """The viewport, or the page's area {x, y, width, height} (CSS pixels from the page's top)."""
        extra = {"clip": dict(clip, scale=1), "captureBeyondViewport": True} if clip else {}
        data = self.send("Page.captureScreenshot", session=True, format="png", **extra)["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))

    def close(self):
        try:
            self.send("Browser.close")
        except (RuntimeError, OSError):
            pass
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        shutil.rmtree(self._profile, ignore_errors=True)
