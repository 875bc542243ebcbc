"""Headless Chromium for the web tests, driven through Debian's chromedriver with Selenium 4.

    browser = Browser(user_data_dir)           # or the `browser` fixture (tests/web/conftest.py)
    browser.size("phone")                      # a 390x844 phone viewport; "narrow" 320x568, "desktop" 1280x900
    browser.open(url)
    browser.wait_until(lambda d: ..., "what we waited for")
    browser.screenshot("paywall")              # build/artifacts/web/paywall-phone.png

Every wait has a deadline: a page load PAGE_LOAD_S, a script SCRIPT_S, each wait_until WAIT_S
unless told, and each WebDriver command Selenium's own 120 s. Sizes are the viewport's, set with
the DevTools protocol (Emulation.setDeviceMetricsOverride), not the window's: a window's inner
size depends on the browser's own frame, and headless Chromium starts no narrower than 500 px.
The phone sizes are emulated as mobile devices: the page's viewport meta tag applies."""
import pathlib
import shutil
import struct

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "build" / "artifacts" / "web"
#: The narrowest phone a page must fit without scrolling sideways (320 CSS px), a common one, a desktop.
SIZES = {"narrow": (320, 568), "phone": (390, 844), "desktop": (1280, 900)}
#: The sizes emulated as a mobile device (the page's viewport meta tag applies).
PHONES = ("narrow", "phone")
PAGE_LOAD_S = 20
SCRIPT_S = 10
WAIT_S = 10


def chromium_path():
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromedriver_path():
    return shutil.which("chromedriver")


def missing_tools():
    """What is not installed, in words (empty when the browser can start)."""
    missing = []
    if chromium_path() is None:
        missing.append("chromium (Debian's chromium)")
    if chromedriver_path() is None:
        missing.append("chromedriver (Debian's chromium-driver)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (PyPI)")
    return missing


def png_size(path):
    """(width, height) of a PNG file; raises when the file is not a PNG."""
    data = pathlib.Path(path).read_bytes()[:24]
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError(f"{path} is not a PNG")
    return struct.unpack(">II", data[16:24])


class Browser:
    def __init__(self, user_data_dir, size="desktop", log_path=None):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        missing = missing_tools()
        if missing:
            raise RuntimeError("cannot start the browser, not installed: " + ", ".join(missing) + " (`make deps` installs them)")
        options = webdriver.ChromeOptions()
        # Both paths given, so Selenium asks its manager for nothing (and goes to no network).
        options.binary_location = chromium_path()
        width, height = SIZES[size]
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                         f"--user-data-dir={user_data_dir}", f"--window-size={width},{height}", "--hide-scrollbars"):
            options.add_argument(argument)
        options.page_load_strategy = "normal"
        service = Service(executable_path=chromedriver_path(), log_output=str(log_path) if log_path else None)
        self.driver = webdriver.Chrome(service=service, options=options)
        try:
            self.driver.set_page_load_timeout(PAGE_LOAD_S)
            self.driver.set_script_timeout(SCRIPT_S)
            self.driver.implicitly_wait(0)
            self.size(size)
        except Exception:
            self.driver.quit()
            raise

    def size(self, name):
        """Sets the device's screen and viewport to SIZES[name] and checks the page sees the screen
        (a phone page without a viewport meta tag lays out 980 px wide, as on a real phone)."""
        width, height = SIZES[name]
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "screenWidth": width, "screenHeight": height, "deviceScaleFactor": 1,
            "mobile": name in PHONES})
        self.size_name = name
        seen = self.driver.execute_script("return [screen.width, screen.height]")
        if seen != [width, height]:
            raise RuntimeError(f"the screen is {seen}, not {width}x{height}")

    def open(self, url):
        self.driver.get(url)

    @property
    def url(self):
        return self.driver.current_url

    def wait_until(self, condition, what, timeout_s=WAIT_S):
        """condition(driver) until it is truthy (its value is returned), or TimeoutException naming `what`."""
        from selenium.webdriver.support.ui import WebDriverWait
        return WebDriverWait(self.driver, timeout_s, poll_frequency=0.05).until(condition, f"waited {timeout_s} s for {what}")

    def screenshot(self, name):
        """The viewport as build/artifacts/web/<name>-<size>.png; returns its path."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}-{self.size_name}.png"
        if not self.driver.save_screenshot(str(path)):
            raise RuntimeError(f"the screenshot {path} was not written")
        return path

    def keys(self, *keys):
        """Keys typed as a person types them, into whatever has the focus."""
        from selenium.webdriver.common.action_chains import ActionChains
        chain = ActionChains(self.driver)
        for key in keys:
            chain.send_keys(key)
        chain.perform()

    def focused(self):
        return self.driver.switch_to.active_element

    def quit(self):
        self.driver.quit()


def one_for_the_test(tmp_path):
    """Chromium at the desktop size (browser.size("phone") for a phone) for one test, quit after
    it: what each suite's `browser` fixture is. A machine without the browser fails here, naming
    what to install: a skipped browser test would pass a run that tested nothing."""
    missing = missing_tools()
    assert not missing, "not installed: " + ", ".join(missing) + " (`make deps` installs them)"
    running = Browser(tmp_path / "chromium-profile", log_path=tmp_path / "chromedriver.log")
    try:
        yield running
    finally:
        running.quit()
