using System;
using System.Collections.Generic;
using System.IO;
using System.Json;
using System.Linq;
using Paywire.Model;
using static Paywire.Tests.TestMain;

namespace Paywire.Tests
{
    /// <summary>
    /// Every shape the conformance vectors spell out decodes into the generated models and encodes
    /// back to the same JSON, numbers compared as System.Json read them (decimals, scale kept: 9.99
    /// and 9.990 differ). Which shapes, and why the others are left out, is
    /// tests/conformance/roundtrip_cases.py's choice (the Python binding's test_roundtrip.py's):
    /// placeholders the driver substitutes, results matched as a subset, params the schema refuses.
    /// Events a step matches as a subset may leave required members out: those that do not decode
    /// are skipped; exact ones must decode (a seq filled in when the case leaves it out, as the
    /// driver does not compare it then).
    /// </summary>
    public static class RoundTripTests
    {
        [Check]
        public static void EveryVectorShapeRoundTrips()
        {
            var selection = (JsonObject)JsonValue.Parse(File.ReadAllText(Path.Combine(Root, "build", "roundtrip-cases.json")));
            var files = new Dictionary<string, Dictionary<string, JsonObject>>();
            var counts = new int[4];
            var failures = new List<string>();
            foreach (JsonObject where in (JsonArray)selection["cases"])
            {
                try
                {
                    counts[RoundTrip(where, Step(files, where))]++;
                }
                catch (Exception error)
                {
                    failures.Add((string)where["case"] + "#" + where["step"] + " " + (string)where["kind"] + ": " + error.Message);
                }
            }
            Check(failures.Count == 0, failures.Count + " failed, first: " + failures.FirstOrDefault());
            Console.WriteLine("     round trip: {0} params, {1} results, {2} events; {3} partial events skipped; left out: {4}",
                counts[0], counts[1], counts[2], counts[3], selection["skipped"]);
            Check(counts[0] > 500 && counts[1] > 100 && counts[2] + counts[3] > 300 && counts[2] > 80, "the vectors give enough to check");
        }

        /// <summary>0 params, 1 result, 2 event, 3 a partial event skipped.</summary>
        private static int RoundTrip(JsonObject where, JsonObject step)
        {
            string kind = where["kind"];
            if (kind == "params")
            {
                Same(step["params"], Results.ParamsRoundTrip[where["method"]](step["params"]));
                return 0;
            }
            if (kind == "result")
            {
                JsonValue result = step["expect"]["success"];
                Same(result, Results.ResultRoundTrip[where["method"]](result));
                return 1;
            }
            var evt = (JsonObject)JsonValue.Parse(step["events"][(int)where["event"]].ToString());
            bool exact = where["exact"];
            if (exact && !evt.ContainsKey("seq")) evt["seq"] = 1;
            IEvent decoded;
            try
            {
                decoded = Events.Parse(evt);
            }
            catch (FormatException)
            {
                if (exact) throw;
                return 3;
            }
            Check(!(decoded is UnknownEvent), "every event the vectors expect is in the schema: " + evt["event"]);
            Same(evt, decoded.ToJson());
            return 2;
        }

        private static JsonObject Step(Dictionary<string, Dictionary<string, JsonObject>> files, JsonObject where)
        {
            string file = where["file"];
            Dictionary<string, JsonObject> cases;
            if (!files.TryGetValue(file, out cases))
            {
                var vector = JsonValue.Parse(File.ReadAllText(Path.Combine(Root, "tests", "conformance", "vectors", file)));
                cases = files[file] = ((JsonArray)vector["cases"]).Cast<JsonObject>().ToDictionary(c => (string)c["id"]);
            }
            return (JsonObject)cases[where["case"]]["steps"][(int)where["step"]];
        }

        internal static void Same(JsonValue expected, JsonValue actual)
        {
            Equal(Canonical(expected), Canonical(actual), "round trip");
        }

        /// <summary>JSON text with sorted keys, each number as System.Json writes its decimal.</summary>
        internal static string Canonical(JsonValue value)
        {
            var obj = value as JsonObject;
            if (obj != null)
            {
                return "{" + string.Join(",", obj.Keys.OrderBy(k => k, StringComparer.Ordinal)
                    .Select(k => new JsonPrimitive(k).ToString() + ":" + Canonical(obj[k]))) + "}";
            }
            var array = value as JsonArray;
            if (array != null) return "[" + string.Join(",", array.Select(Canonical)) + "]";
            return value == null ? "null" : value.ToString();
        }
    }
}
