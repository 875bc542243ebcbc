@testable import ServerDomain
import Testing
@testable import paywire_server

/// The dashboard's sign-in on its own: the throttle of failures, the cookies, where a sign-in
/// may send the browser, and the tokens.
@Suite struct SessionTests {
    @Test func tenFailuresInAWindowMakeAnAddressWaitUntilTheOldestLeavesIt() {
        var throttle = LoginThrottle(limit: 3, windowMillis: 60_000)
        for second in 0..<3 {
            #expect(throttle.admits("10.0.0.1", now: second * 1000) == .allow)
            throttle.failed("10.0.0.1", now: second * 1000)
        }
        #expect(throttle.admits("10.0.0.1", now: 10_000) == .wait(seconds: 50))
        #expect(throttle.admits("10.0.0.2", now: 10_000) == .allow, "another address is not held back")
        #expect(throttle.admits("10.0.0.1", now: 60_000) == .allow, "the oldest failure left the window")
    }

    @Test func theThrottleRemembersABoundedNumberOfAddresses() {
        var throttle = LoginThrottle(limit: 1, windowMillis: 60_000, maxAddresses: 2)
        for (index, address) in ["a", "b", "c"].enumerated() { throttle.failed(address, now: index) }
        #expect(throttle.admits("a", now: 10) == .allow, "the address seen longest ago was forgotten")
        #expect(throttle.admits("c", now: 10) == .wait(seconds: 60))
    }

    @Test func aSignInSendsTheBrowserToADashboardPathOnly() {
        #expect(SessionCookies.destination("/dashboard/profiles/p-1") == "/dashboard/profiles/p-1")
        for elsewhere in [nil, "https://evil.example/", "//evil.example", "/dashboardx", "/dashboard/login", "/dashboard/ x", "/dashboard\\x"] {
            #expect(SessionCookies.destination(elsewhere) == "/dashboard", "\(elsewhere ?? "nil")")
        }
    }

    @Test func cookiesAreReadByNameAndWrittenHttpOnlyAndStrict() {
        #expect(SessionCookies.value("paywire_session", in: "a=1; paywire_session=tok; b=2") == "tok")
        #expect(SessionCookies.value("paywire_session", in: "xpaywire_session=tok") == nil)
        let cookie = SessionCookies.setCookie("paywire_session", "t", path: "/dashboard", maxAge: 60, secure: true)
        #expect(cookie == "paywire_session=t; Path=/dashboard; Max-Age=60; HttpOnly; SameSite=Strict; Secure")
    }

    @Test func aSessionsCSRFTokenIsBoundToItsTokenAndNotToTheKeptDigest() {
        let (token, digest) = SecretToken.make(SystemRandom())
        #expect(SecretToken.digest(ofToken: token) == digest)
        #expect(SecretToken.derived(token, "csrf") == SecretToken.derived(token, "csrf"))
        #expect(SecretToken.derived(token, "csrf") != SecretToken.derived(digest, "csrf"))
        #expect(SecretToken.derived(token, "csrf") != SecretToken.derived(SecretToken.make(SystemRandom()).token, "csrf"))
    }
}

/// Rate limits on their own: token buckets per holder.
@Suite struct RateLimiterTests {
    @Test func aHolderSendsItsBurstThenWaitsForTokensToComeBack() {
        var limiter = RateLimiter(perSecond: 2, burst: 4)
        for _ in 0..<4 { #expect(limiter.take("a", now: 0) == nil) }
        #expect(limiter.take("a", now: 0) == 1)
        #expect(limiter.take("b", now: 0) == nil, "each holder has its own bucket")
        #expect(limiter.take("a", now: 499) == 1)
        #expect(limiter.take("a", now: 500) == nil, "a token a half second at two a second")
        #expect(limiter.take("a", now: 600) == 1)
    }

    @Test func aRateAMinuteComesBackATokenAtATimeAndWaitingTakesNothing() {
        var limiter = RateLimiter(perMinute: 60, burst: 2)
        #expect(limiter.wait("a", now: 0) == nil)
        #expect(limiter.take("a", now: 0) == nil && limiter.take("a", now: 0) == nil)
        #expect(limiter.wait("a", now: 0) == 1 && limiter.wait("a", now: 0) == 1, "a peek takes no token")
        #expect(limiter.take("a", now: 999) == 1)
        #expect(limiter.take("a", now: 1000) == nil, "one a second at 60 a minute")
        var slow = RateLimiter(perMinute: 1, burst: 1)
        #expect(slow.take("b", now: 0) == nil && slow.take("b", now: 0) == 60)
    }

    @Test func aFloodOfHoldersIsForgottenOlderHalfFirst() {
        var limiter = RateLimiter(perSecond: 1, burst: 1, maxHolders: 10)
        for index in 0..<11 { #expect(limiter.take("h\(index)", now: index) == nil) }
        #expect(limiter.take("h10", now: 11) == 1, "the newest is remembered")
        #expect(limiter.take("h0", now: 11) == nil, "the oldest was forgotten: a full bucket again")
    }
}
