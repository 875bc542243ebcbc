using System;
using System.Runtime.InteropServices;
using System.Text;

[assembly: System.Runtime.CompilerServices.InternalsVisibleTo("paywire-tests")]

namespace Paywire
{
    /// <summary>
    /// The C ABI of libpaywire (include/paywire.h) as P/Invoke declares it: the layer
    /// <see cref="Client"/> is built on, and what the conformance runner drives directly, because it
    /// must pass NULL pointers, stale handles and bytes that are not UTF-8.
    /// </summary>
    /// <remarks>
    /// Call <see cref="Load"/> before any extern below: it finds the library the way every Paywire
    /// binding does and checks its ABI (see <see cref="LibraryLocator"/>); the externs then bind to
    /// that library through its SONAME. Mono binds an extern when it compiles the first method that
    /// calls it, and a failed bind stays failed: so call Load in a method that calls no extern, and
    /// the externs from methods that run (and are compiled) after it. Every string the library returns is an <c>IntPtr</c>,
    /// copied and released by <see cref="TakeString"/>: a <c>string</c> return would be freed by the
    /// marshaller with <c>free()</c>, which paywire.h forbids. Strings in are NUL-terminated UTF-8
    /// <c>byte[]</c>, pinned for the call, so no platform encoding can change them.
    /// </remarks>
    public static class Abi
    {
        /// <summary>The ABI this binding was written for; the library's must be equal.</summary>
        public const uint AbiVersion = 1;

        /// <summary>The name the externs bind to: the SONAME of the library Load found.</summary>
        public const string LibraryName = "libpaywire.so.1";

        /// <summary>paywire_event_fn: one event, borrowed until the callback returns.</summary>
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate void EventCallback(IntPtr eventJson, IntPtr userData);

        /// <summary>paywire_free_fn: called exactly once per handler's user data.</summary>
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate void FreeCallback(IntPtr userData);

        /// <summary>Finds, loads and checks the library once; throws <see cref="LibraryNotFoundException"/>.</summary>
        public static void Load()
        {
            LibraryLocator.EnsureLoaded();
        }

        /// <summary>The path the library was loaded from.</summary>
        public static string LibraryPath { get { return LibraryLocator.EnsureLoaded(); } }

        [DllImport(LibraryName)] public static extern uint paywire_abi_version();
        [DllImport(LibraryName)] public static extern IntPtr paywire_version();
        [DllImport(LibraryName)] public static extern IntPtr paywire_status_name(int status);
        [DllImport(LibraryName)] public static extern void paywire_string_free(IntPtr text);

        [DllImport(LibraryName)]
        public static extern int paywire_client_new(byte[] configJson, out IntPtr outClient, out IntPtr outJson);
        /// <summary>paywire_client_new with NULL for out_client.</summary>
        [DllImport(LibraryName, EntryPoint = "paywire_client_new")]
        public static extern int paywire_client_new_null_out(byte[] configJson, IntPtr nullOutClient, out IntPtr outJson);

        [DllImport(LibraryName)] public static extern void paywire_client_free(IntPtr client);

        [DllImport(LibraryName)]
        public static extern int paywire_client_call(IntPtr client, byte[] method, byte[] paramsJson, out IntPtr outJson);
        /// <summary>paywire_client_call with NULL for out_json.</summary>
        [DllImport(LibraryName, EntryPoint = "paywire_client_call")]
        public static extern int paywire_client_call_null_out(IntPtr client, byte[] method, byte[] paramsJson, IntPtr nullOutJson);

        [DllImport(LibraryName)]
        public static extern int paywire_client_call_async(IntPtr client, byte[] method, byte[] paramsJson, out ulong outCallId);
        /// <summary>paywire_client_call_async with NULL for out_call_id.</summary>
        [DllImport(LibraryName, EntryPoint = "paywire_client_call_async")]
        public static extern int paywire_client_call_async_null_out(IntPtr client, byte[] method, byte[] paramsJson, IntPtr nullOutCallId);

        [DllImport(LibraryName)]
        public static extern int paywire_client_set_event_handler(IntPtr client, EventCallback fn, IntPtr userData, FreeCallback userDataFree);

        [DllImport(LibraryName)]
        public static extern int paywire_client_poll(IntPtr client, int timeoutMs, out IntPtr outJson);

        [DllImport("libc.so.6")] private static extern UIntPtr strlen(IntPtr text);

        /// <summary>NUL-terminated UTF-8 bytes of <paramref name="text"/>; null stays NULL.</summary>
        public static byte[] CString(string text)
        {
            return text == null ? null : CString(Encoding.UTF8.GetBytes(text));
        }

        /// <summary><paramref name="bytes"/> with a NUL appended; null stays NULL.</summary>
        public static byte[] CString(byte[] bytes)
        {
            if (bytes == null) return null;
            var terminated = new byte[bytes.Length + 1];
            Buffer.BlockCopy(bytes, 0, terminated, 0, bytes.Length);
            return terminated;
        }

        /// <summary>Copies a string the library returned, then releases it; null for NULL.</summary>
        public static string TakeString(IntPtr text)
        {
            if (text == IntPtr.Zero) return null;
            try
            {
                return BorrowString(text);
            }
            finally
            {
                paywire_string_free(text);
            }
        }

        /// <summary>Copies a string the caller does not own (a static string, an event in a callback).</summary>
        public static string BorrowString(IntPtr text)
        {
            if (text == IntPtr.Zero) return null;
            int length = checked((int)strlen(text).ToUInt64());
            var bytes = new byte[length];
            Marshal.Copy(text, bytes, 0, length);
            return Encoding.UTF8.GetString(bytes);
        }

        /// <summary>paywire_status_name: "INVALID_UTF8" for -3, "UNKNOWN" for a number it lacks.</summary>
        public static string StatusName(int status)
        {
            return BorrowString(paywire_status_name(status));
        }
    }
}
