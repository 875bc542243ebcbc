using System;
using System.Runtime.InteropServices;

namespace Paywire
{
    /// <summary>
    /// Ends a Mono process that used an event handler.
    /// </summary>
    /// <remarks>
    /// Mono before 6.12 (Debian 12 ships 6.8) waits at shutdown for every native thread that ever
    /// called into managed code, and a library thread that delivered an event lives as long as the
    /// process: returning from Main or calling Environment.Exit then never finishes (fixed upstream
    /// in mono/mono#20466, "don't wait for native threads that aren't calling Mono"). Dispose every
    /// client, then call <see cref="Now"/>. Unity's runtime does not shut down this way.
    /// </remarks>
    public static class MonoExit
    {
        [DllImport("libc.so.6", EntryPoint = "_exit")] private static extern void ExitProcess(int status);

        /// <summary>Flushes the console and ends the process with <paramref name="exitCode"/> at once.</summary>
        public static void Now(int exitCode)
        {
            Console.Out.Flush();
            Console.Error.Flush();
            ExitProcess(exitCode);
        }
    }
}
