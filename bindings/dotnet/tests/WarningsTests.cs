using System;
using System.Collections.Generic;
using System.Json;
using static Paywire.Tests.TestMain;

namespace Paywire.Tests
{
    /// <summary>What went otherwise than asked reaches Warnings.Handler; a near miss of a config key is refused.</summary>
    public static class WarningsTests
    {
        private static List<string> WarningsOf(Action body)
        {
            var seen = new List<string>();
            Action<string> previous = Warnings.Handler;
            Warnings.Handler = seen.Add;
            try
            {
                body();
            }
            finally
            {
                Warnings.Handler = previous;
            }
            return seen;
        }

        [Check]
        public static void AnUnknownConfigKeyIsAWarningNamingIt()
        {
            List<string> seen = WarningsOf(() => new Client("{\"profile_id\": \"w\", \"colour\": \"blue\"}").Dispose());
            Check(seen.Count == 1 && seen[0].Contains("colour"), "one warning naming colour: " + string.Join("; ", seen));
            Check(WarningsOf(() => new Client("{\"profile_id\": \"w\"}").Dispose()).Count == 0, "a clean config warns nothing");
        }

        [Check]
        public static void ANearMissOfAConfigKeyIsRefusedWithTheKeyItLikelyMeant()
        {
            PaywireException error = Raises(() => new Client("{\"profile_id\": \"w\", \"fallbak\": {\"path\": \"b.json\"}}").Dispose());
            Equal("wrong_param", error.Code, "code");
            Equal("fallback", Text(error.Details, "did_you_mean"), "did_you_mean");
        }

        [Check]
        public static void APaywallServedBecauseTheBackendRefusedTheKeyIsAWarning()
        {
            var paywall = (JsonObject)JsonValue.Parse(
                "{\"paywall_id\": \"p\", \"source\": \"fallback\", \"backend_error\": {\"status\": 401, \"code\": \"unauthorized\"}}");
            List<string> seen = WarningsOf(() => Warnings.Report(paywall));
            Check(seen.Count == 1 && seen[0].Contains("HTTP 401") && seen[0].Contains("unauthorized"), "the refusal: " + string.Join("; ", seen));
            paywall.Remove("backend_error");
            Check(WarningsOf(() => Warnings.Report(paywall)).Count == 0, "a paywall the backend served warns nothing");
        }
    }
}
