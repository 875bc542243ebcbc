using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;

namespace Paywire
{
    /// <summary>libpaywire could not be found, did not load, or has an ABI this binding was not written for.</summary>
    public sealed class LibraryNotFoundException : DllNotFoundException
    {
        internal LibraryNotFoundException(string message) : base(message) { }
    }

    /// <summary>
    /// Finds libpaywire the way the Python and JVM bindings do: <c>PAYWIRE_LIBRARY</c> when set (and
    /// then only it); <c>libpaywire.so.1</c> beside this assembly; <c>build/lib/libpaywire.so.1</c>
    /// beside any folder above it (a checkout finds its own build); the system's search; <c>lib/</c> under <c>PAYWIRE_PREFIX</c>,
    /// <c>/usr/local</c>, <c>/usr</c>. The first that loads is checked: another ABI is refused.
    /// </summary>
    /// <remarks>
    /// Mono has no API to point a <c>[DllImport]</c> at a path chosen at run time. So the candidate
    /// is opened with <c>dlopen</c> first; the externs name the SONAME, which the dynamic loader
    /// answers with the object already loaded. That this happened is checked, not assumed: the
    /// static version string seen through the externs must be the one at the found library's address.
    /// </remarks>
    internal static class LibraryLocator
    {
        private const int RtldNow = 2;
        private const int RtldGlobal = 0x100;
        private static readonly object Gate = new object();
        private static string loadedPath;

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)] private delegate uint AbiVersionFunction();
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)] private delegate IntPtr VersionFunction();

        [DllImport("libdl.so.2")] private static extern IntPtr dlopen(string file, int mode);
        [DllImport("libdl.so.2")] private static extern IntPtr dlsym(IntPtr handle, string symbol);
        [DllImport("libdl.so.2")] private static extern IntPtr dlerror();

        /// <summary>Loads the library once and returns its path; throws on every call while it cannot.</summary>
        internal static string EnsureLoaded()
        {
            lock (Gate)
            {
                if (loadedPath == null) loadedPath = Load();
                return loadedPath;
            }
        }

        private static string Load()
        {
            var tried = new List<string>();
            foreach (string candidate in Candidates())
            {
                if (candidate.Contains("/") && !File.Exists(candidate))
                {
                    tried.Add(candidate);
                    continue;
                }
                IntPtr handle = dlopen(candidate, RtldNow | RtldGlobal);
                IntPtr abiVersion = handle == IntPtr.Zero ? IntPtr.Zero : dlsym(handle, "paywire_abi_version");
                if (abiVersion == IntPtr.Zero)
                {
                    tried.Add(candidate + " (" + (Marshal.PtrToStringAnsi(dlerror()) ?? "not a Paywire library") + ")");
                    continue;
                }
                uint version = Call<AbiVersionFunction>(abiVersion)();
                if (version != Abi.AbiVersion)
                {
                    throw new LibraryNotFoundException(candidate + " has ABI " + version + ", this binding needs ABI " + Abi.AbiVersion);
                }
                CheckExternsBindTo(candidate, dlsym(handle, "paywire_version"));
                return candidate;
            }
            throw new LibraryNotFoundException("libpaywire not found; set PAYWIRE_LIBRARY. Tried: " + string.Join("; ", tried));
        }

        private static void CheckExternsBindTo(string candidate, IntPtr versionFunction)
        {
            IntPtr bound;
            try
            {
                bound = Abi.paywire_version();
            }
            catch (Exception error) when (error is DllNotFoundException || error is EntryPointNotFoundException)
            {
                throw new LibraryNotFoundException(candidate + " loaded, but P/Invoke cannot reach it as " + Abi.LibraryName + ": " + error.Message);
            }
            if (versionFunction == IntPtr.Zero || Call<VersionFunction>(versionFunction)() != bound)
            {
                throw new LibraryNotFoundException("P/Invoke bound " + Abi.LibraryName + " to another library than " + candidate
                    + "; a different libpaywire was loaded first");
            }
        }

        private static T Call<T>(IntPtr function) where T : class
        {
            return Marshal.GetDelegateForFunctionPointer(function, typeof(T)) as T;
        }

        internal static List<string> Candidates()
        {
            string fileName = "libpaywire.so." + Abi.AbiVersion;
            var candidates = new List<string>();
            string explicitPath = Environment.GetEnvironmentVariable("PAYWIRE_LIBRARY");
            if (!string.IsNullOrEmpty(explicitPath))
            {
                candidates.Add(explicitPath);
                return candidates;
            }
            string location = typeof(LibraryLocator).Assembly.Location;
            string assemblyFolder = string.IsNullOrEmpty(location) ? null : Path.GetDirectoryName(Path.GetFullPath(location));
            // Beside the assembly: an app folder that carries both (Paywire.dll and the library),
            // as the getting-started page copies them out of a checkout's build.
            if (!string.IsNullOrEmpty(assemblyFolder)) candidates.Add(Path.Combine(assemblyFolder, fileName));
            for (string folder = assemblyFolder; !string.IsNullOrEmpty(folder); folder = Path.GetDirectoryName(folder))
            {
                candidates.Add(Path.Combine(folder, "build", "lib", fileName));
            }
            candidates.Add(fileName);
            foreach (string prefix in new[] { Environment.GetEnvironmentVariable("PAYWIRE_PREFIX"), "/usr/local", "/usr" })
            {
                if (!string.IsNullOrEmpty(prefix)) candidates.Add(Path.Combine(prefix, "lib", fileName));
            }
            return candidates;
        }
    }
}
