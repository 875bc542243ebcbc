/// The page's one script, sent inline under the response's nonce. It only improves a page that
/// already works: the countdown ticks (each minute, without seconds, for readers who asked for
/// less motion), and a toggle's two radios become one switch. It writes text and attributes
/// through the DOM, never HTML, and sets no inline styles, which the CSP would refuse.
enum Script {
    static let js = """
    (function () {
      "use strict";
      var reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      function pad(n) { return (n < 10 ? "0" : "") + n; }

      var clocks = Array.prototype.slice.call(document.querySelectorAll("time[data-pw-ends]"));
      function tick() {
        var now = Date.now();
        clocks.forEach(function (clock) {
          var end = Number(clock.getAttribute("data-pw-ends"));
          if (!isFinite(end)) { return; }
          var s = Math.floor(Math.max(0, end - now) / 1000);
          var days = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60);
          clock.textContent = (days > 0 ? days + "d " : "") + pad(h) + ":" + pad(m) + (reduce ? "" : ":" + pad(s % 60));
        });
      }
      if (clocks.length) { tick(); window.setInterval(tick, reduce ? 60000 : 1000); }

      // A plan card and a toggle may offer the same product through different radios of the one
      // product_id group, so a switch reads the group's checked value, not its own radios.
      var switches = [];
      function chosenProduct() {
        var checked = document.querySelector("input[name=product_id]:checked");
        return checked ? checked.value : null;
      }
      function priceOf(radio) {
        var price = radio.parentNode ? radio.parentNode.querySelector(".pw-toggle-price") : null;
        return price ? price.textContent : "";
      }
      function sync() {
        var product = chosenProduct();
        switches.forEach(function (t) {
          var on = product === t.radios[0].value;
          t.button.setAttribute("aria-checked", on ? "true" : "false");
          t.price.textContent = on ? priceOf(t.radios[0]) : (product === t.radios[1].value ? priceOf(t.radios[1]) : "");
        });
      }
      Array.prototype.forEach.call(document.querySelectorAll("[data-pw-toggle]"), function (toggle) {
        var radios = toggle.querySelectorAll("input[type=radio]");
        if (radios.length < 2) { return; }
        var legend = toggle.querySelector("legend");
        var button = document.createElement("button");
        button.type = "button";
        button.className = "pw-switch";
        button.setAttribute("role", "switch");
        var label = document.createElement("span");
        label.className = "pw-switch-label";
        label.textContent = legend ? legend.textContent : "";
        var price = document.createElement("span");
        price.className = "pw-switch-price";
        button.appendChild(label);
        button.appendChild(price);
        toggle.appendChild(button);
        toggle.classList.add("pw-toggle-enhanced");
        var entry = { radios: radios, button: button, price: price };
        switches.push(entry);
        button.addEventListener("click", function () {
          (chosenProduct() === radios[0].value ? radios[1] : radios[0]).checked = true;
          sync();
        });
      });
      document.addEventListener("change", sync);
      sync();
    })();
    """

    /// The page's beacon (`PaywallPage.Beacon`): once the browser has drawn the page (the frame
    /// after it is shown; a page prerendered or kept in a hidden tab waits until it is seen),
    /// one `POST` of the beacon's form, with the page's cookies. Nothing on the page waits on it.
    static let seen = """
    (function () {
      "use strict";
      var seen = document.querySelector("[data-pw-seen]");
      if (!seen || !window.fetch || !window.requestAnimationFrame) { return; }
      var sent = false;
      function send() {
        if (sent || document.visibilityState === "hidden") { return; }
        sent = true;
        window.fetch(seen.getAttribute("data-pw-seen-url"), {
          method: "POST", credentials: "same-origin", keepalive: true, cache: "no-store",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: seen.getAttribute("data-pw-seen-body")
        }).catch(function () {});
      }
      window.requestAnimationFrame(function () { window.setTimeout(send, 0); });
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "visible") { window.requestAnimationFrame(function () { window.setTimeout(send, 0); }); }
      });
    })();
    """
}
