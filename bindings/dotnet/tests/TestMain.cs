using System;
using System.IO;
using System.Json;
using System.Linq;
using System.Reflection;

namespace Paywire.Tests
{
    /// <summary>Marks a test method: public, static, no arguments, throws on failure.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class CheckAttribute : Attribute { }

    /// <summary>
    /// The binding's tests: every [Check] method of the classes below, in name order, each named
    /// after the behaviour it checks. A small runner of our own instead of NUnit keeps the test
    /// needs to Mono's compiler and runtime. Ends with <c>dotnet-binding: N passed, N failed</c>.
    /// </summary>
    public static class TestMain
    {
        private static readonly Type[] Suites =
        {
            typeof(ClientTests), typeof(ErrorMappingTests), typeof(AsyncTests), typeof(HandlerTests),
            typeof(OwnershipTests), typeof(LibraryLoadingTests), typeof(TypedTests), typeof(RoundTripTests), typeof(WarningsTests),
        };

        public static int Main(string[] arguments)
        {
            if (arguments.Length == 1 && arguments[0] == "--print-library") return LibraryLoadingTests.PrintLibrary();
            int passed = 0, failed = 0;
            foreach (Type suite in Suites)
            {
                foreach (MethodInfo method in suite.GetMethods(BindingFlags.Public | BindingFlags.Static).OrderBy(m => m.Name))
                {
                    if (method.GetCustomAttributes(typeof(CheckAttribute), false).Length == 0) continue;
                    if (arguments.Length > 0 && !arguments.Contains(method.Name)) continue;
                    var clock = System.Diagnostics.Stopwatch.StartNew();
                    try
                    {
                        method.Invoke(null, null);
                        passed++;
                        Console.WriteLine("ok   {0}.{1} ({2} ms)", suite.Name, method.Name, clock.ElapsedMilliseconds);
                    }
                    catch (TargetInvocationException error)
                    {
                        failed++;
                        Console.WriteLine("FAIL {0}.{1}: {2}", suite.Name, method.Name, error.InnerException);
                    }
                }
            }
            Console.WriteLine("dotnet-binding: {0} passed, {1} failed", passed, failed);
            // Handlers ran on library threads, which Mono 6.8 would wait for at exit forever.
            MonoExit.Now(failed == 0 && passed > 0 ? 0 : 1);
            return 1;
        }

        /// <summary>The repository: PAYWIRE_ROOT, else the working directory (make runs from the root).</summary>
        internal static string Root
        {
            get { return Path.GetFullPath(Environment.GetEnvironmentVariable("PAYWIRE_ROOT") ?? "."); }
        }

        /// <summary>examples/config.json with its fallback bundle made absolute.</summary>
        internal static JsonObject ExampleConfig()
        {
            var config = (JsonObject)JsonValue.Parse(File.ReadAllText(Path.Combine(Root, "examples", "config.json")));
            config["fallback"] = new JsonObject { { "path", Path.Combine(Root, "examples", "bundle.json") } };
            return config;
        }

        internal static Client ExampleClient()
        {
            return new Client(ExampleConfig());
        }

        internal static void Check(bool condition, string what)
        {
            if (!condition) throw new Exception("check failed: " + what);
        }

        internal static void Equal<T>(T expected, T actual, string what)
        {
            if (!Equals(expected, actual)) throw new Exception(what + ": expected " + expected + ", got " + actual);
        }

        /// <summary>Runs <paramref name="body"/> and returns the PaywireException it must throw.</summary>
        internal static PaywireException Raises(Action body)
        {
            try
            {
                body();
            }
            catch (PaywireException error)
            {
                return error;
            }
            throw new Exception("expected a PaywireException");
        }

        /// <summary>A string member of a JSON object.</summary>
        internal static string Text(JsonValue value, string key)
        {
            return (string)value[key];
        }
    }
}
