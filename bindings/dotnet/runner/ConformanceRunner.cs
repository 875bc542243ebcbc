using System;
using System.IO;
using System.Json;
using System.Text;

namespace Paywire.Conformance
{
    /// <summary>
    /// The .NET runner of the Paywire conformance kit, on Mono: reads the ops of
    /// tests/conformance/README.md as JSON lines on stdin and answers each with one JSON line.
    /// <code>mono build/dotnet/paywire-conformance.exe</code>
    /// Every client still live when stdin closes is freed; the exit status is 0 unless the runner
    /// could not start (no library, another ABI).
    /// </summary>
    public static class ConformanceRunner
    {
        public static int Main()
        {
            try
            {
                Abi.Load();
            }
            catch (LibraryNotFoundException error)
            {
                Console.Error.WriteLine(error.Message);
                return 1;
            }
            // UTF-8 both ways whatever the locale says: the protocol is UTF-8.
            var utf8 = new UTF8Encoding(false);
            var input = new StreamReader(Console.OpenStandardInput(), utf8);
            var output = new StreamWriter(Console.OpenStandardOutput(), utf8);
            var ops = new RunnerOps();
            for (string line = input.ReadLine(); line != null; line = input.ReadLine())
            {
                if (line.Length == 0) continue;
                output.Write(Answer(ops, line).ToString());
                output.Write('\n');
                output.Flush();
            }
            ops.FreeLiveClients();
            output.Flush();
            // Not Environment.Exit: Mono 6.8 would wait forever for library threads that ran a handler.
            MonoExit.Now(0);
            return 0;
        }

        /// <summary>One op's reply, with the op's id echoed; a runner error for an op that is not JSON.</summary>
        private static Reply Answer(RunnerOps ops, string line)
        {
            JsonObject op;
            try
            {
                op = JsonValue.Parse(line) as JsonObject;
            }
            catch (Exception error)
            {
                return Reply.RunnerError("op is not JSON").Add("detail", error.Message);
            }
            if (op == null) return Reply.RunnerError("op is not a JSON object");
            Reply reply;
            try
            {
                reply = ops.Run(op);
            }
            catch (Exception error)
            {
                reply = Reply.RunnerError(error.ToString());
            }
            JsonValue id;
            if (op.TryGetValue("id", out id)) reply.AddJson("id", id);
            return reply;
        }
    }
}
