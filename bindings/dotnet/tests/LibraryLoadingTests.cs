using System;
using System.Diagnostics;
using System.IO;
using static Paywire.Tests.TestMain;

namespace Paywire.Tests
{
    /// <summary>Finding the library, in a fresh process each time (a process loads it once).</summary>
    public static class LibraryLoadingTests
    {
        /// <summary>What the checks below start: loads the library and prints its path.</summary>
        internal static int PrintLibrary()
        {
            try
            {
                Console.WriteLine(Abi.LibraryPath);
                return 0;
            }
            catch (LibraryNotFoundException error)
            {
                Console.Error.WriteLine(error.Message);
                return 3;
            }
        }

        [Check]
        public static void CheckoutFindsItsOwnBuildWithoutSettings()
        {
            Result result = LoadIn(null);
            Equal(0, result.Exit, "exit status; stderr: " + result.Stderr);
            Equal(Path.Combine(Root, "build", "lib", "libpaywire.so." + Abi.AbiVersion), result.Stdout.Trim(), "path");
        }

        [Check]
        public static void MissingExplicitLibraryIsAClearError()
        {
            string missing = Path.Combine(TemporaryFolder(), "missing.so");
            Result result = LoadIn(missing);
            Equal(3, result.Exit, "exit status");
            Check(result.Stderr.Contains("libpaywire not found; set PAYWIRE_LIBRARY"), "message: " + result.Stderr);
            Check(result.Stderr.Contains(missing), "names what was tried: " + result.Stderr);
        }

        [Check]
        public static void LibraryOfAnotherAbiIsRefused()
        {
            string folder = TemporaryFolder();
            string source = Path.Combine(folder, "fake.c"), fake = Path.Combine(folder, "libpaywire.so.2");
            File.WriteAllText(source, "unsigned paywire_abi_version(void) { return 2; }\n");
            using (Process compiler = Process.Start(new ProcessStartInfo("cc", "-shared -fPIC " + source + " -o " + fake) { UseShellExecute = false }))
            {
                compiler.WaitForExit();
                Equal(0, compiler.ExitCode, "cc built the fake library");
            }
            Result result = LoadIn(fake);
            Equal(3, result.Exit, "exit status");
            Check(result.Stderr.Contains("has ABI 2, this binding needs ABI 1"), "message: " + result.Stderr);
        }

        private sealed class Result
        {
            internal int Exit;
            internal string Stdout, Stderr;
        }

        private static string TemporaryFolder()
        {
            string folder = Path.Combine(Path.GetTempPath(), "paywire-dotnet-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(folder);
            return folder;
        }

        /// <summary>Runs this program with --print-library from a temporary folder, PAYWIRE_LIBRARY set or not.</summary>
        private static Result LoadIn(string explicitLibrary)
        {
            string program = typeof(LibraryLoadingTests).Assembly.Location;
            var start = new ProcessStartInfo("mono", "\"" + program + "\" --print-library")
            {
                UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true,
                WorkingDirectory = TemporaryFolder(),
            };
            start.EnvironmentVariables.Remove("PAYWIRE_LIBRARY");
            if (explicitLibrary != null) start.EnvironmentVariables["PAYWIRE_LIBRARY"] = explicitLibrary;
            using (Process process = Process.Start(start))
            {
                var result = new Result { Stdout = process.StandardOutput.ReadToEnd(), Stderr = process.StandardError.ReadToEnd() };
                Check(process.WaitForExit(60000), "the process finished");
                result.Exit = process.ExitCode;
                return result;
            }
        }
    }
}
