using System;
using System.Runtime.InteropServices;
using static Paywire.Tests.TestMain;

namespace Paywire.Tests
{
    /// <summary>
    /// No string the library returns is leaked. The measure is the C heap in use (glibc's
    /// mallinfo2, summed over every arena), not RSS: the managed heap and the JIT move RSS by
    /// megabytes, while the C heap grows by exactly what is never given back to
    /// paywire_string_free. A leak of one envelope per call would grow it by calls x envelope
    /// size; the test allows a tenth of that.
    /// </summary>
    public static class OwnershipTests
    {
        private const int Calls = 100000;
        private const string Params = "{\"placement_id\": \"onboarding\"}";

        /// <summary>glibc's malloc statistics; size_t fields.</summary>
        [StructLayout(LayoutKind.Sequential)]
        private struct MallocInfo
        {
            public UIntPtr Arena, Ordblks, Smblks, Hblks, Hblkhd, Usmblks, Fsmblks, Uordblks, Fordblks, Keepcost;
        }

        [DllImport("libc.so.6")] private static extern MallocInfo mallinfo2();

        /// <summary>Bytes of C heap in use: small blocks plus mmapped ones.</summary>
        private static long CHeapInUse()
        {
            MallocInfo info = mallinfo2();
            return (long)info.Uordblks.ToUInt64() + (long)info.Hblkhd.ToUInt64();
        }

        [Check]
        public static void HundredThousandCallsLeaveTheCHeapWhereItWas()
        {
            using (Client client = ExampleClient())
            {
                int envelopeBytes = client.Call("get_paywall", Params).ToString().Length;
                Check(envelopeBytes > 500, "a paywall is large enough to show a leak: " + envelopeBytes);
                long growth = CHeapGrowth(Calls, () => client.Call("get_paywall", Params));
                long leak = (long)Calls * envelopeBytes;
                Console.WriteLine("     {0} calls: C heap grew {1} bytes (a leak would be {2})", Calls, growth, leak);
                Check(growth < leak / 10, "C heap grew " + growth + " bytes over " + Calls + " calls");
            }
        }

        [Check]
        public static void HundredThousandPolledEventsAreFreedToo()
        {
            using (Client client = ExampleClient())
            {
                client.CallAsync("get_paywall", Params);
                int eventBytes = client.Poll(2000).ToString().Length;
                long growth = CHeapGrowth(Calls, () =>
                {
                    client.CallAsync("get_paywall", Params);
                    Check(client.Poll(2000) != null, "call_result arrived");
                });
                long leak = (long)Calls * eventBytes;
                Console.WriteLine("     {0} async calls polled: C heap grew {1} bytes (a leak would be {2})", Calls, growth, leak);
                Check(growth < leak / 10, "C heap grew " + growth + " bytes over " + Calls + " polled events");
            }
        }

        /// <summary>
        /// The C heap's growth over <paramref name="times"/> runs of <paramref name="body"/>, measured
        /// after half as many runs to warm up (the JIT and the runtime settle their own allocations).
        /// </summary>
        private static long CHeapGrowth(int times, Action body)
        {
            for (int i = 0; i < times / 2; i++) body();
            GC.Collect();
            long before = CHeapInUse();
            for (int i = 0; i < times; i++) body();
            GC.Collect();
            return CHeapInUse() - before;
        }
    }
}
