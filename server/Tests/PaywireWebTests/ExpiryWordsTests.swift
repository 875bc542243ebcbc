import PaywireWeb
import Testing

/// The success page's expiry in words: how long, to the nearest day, hour or minute, then the
/// day and time with its zone, never the wire's ISO form.
@Suite struct ExpiryWordsTests {
    let now = 1_700_000_000_000   // 2023-11-14T22:13:20Z
    let minute = 60_000, hour = 3_600_000, day = 86_400_000

    @Test func aWeekIsSevenDaysUntilTheDayAndTimeInUTC() {
        #expect(ExpiryWords.phrase(expiresAt: now + 7 * day, now: now) == "for 7 days, until 21 November 2023, 22:13 UTC")
        // A reload minutes later still reads as the week it nearly is, with the same end.
        #expect(ExpiryWords.phrase(expiresAt: now + 7 * day, now: now + 5 * minute) == "for 7 days, until 21 November 2023, 22:13 UTC")
    }

    @Test func shorterSpansAreSaidInTheirOwnUnitSingularWhenOne() {
        #expect(ExpiryWords.phrase(expiresAt: now + day, now: now).hasPrefix("for 1 day, until "))
        #expect(ExpiryWords.phrase(expiresAt: now + 3 * hour, now: now).hasPrefix("for 3 hours, until "))
        #expect(ExpiryWords.phrase(expiresAt: now + hour, now: now).hasPrefix("for 1 hour, until "))
        #expect(ExpiryWords.phrase(expiresAt: now + 90_000, now: now).hasPrefix("for 2 minutes, until "))
        #expect(ExpiryWords.phrase(expiresAt: now + 1, now: now).hasPrefix("for 1 minute, until "))
    }

    @Test func theDayHasNoLeadingZeroAndALeapDayIsNamed() {
        let leapDay = 1_709_165_100_000   // 2024-02-29T00:05:00Z
        #expect(ExpiryWords.phrase(expiresAt: leapDay, now: leapDay - 2 * day) == "for 2 days, until 29 February 2024, 00:05 UTC")
        let first = 1_704_067_200_000 + 9 * hour   // 2024-01-01T09:00:00Z
        #expect(ExpiryWords.phrase(expiresAt: first, now: first - day).hasSuffix("until 1 January 2024, 09:00 UTC"))
    }
}
