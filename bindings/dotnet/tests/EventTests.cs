using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Json;
using System.Threading;
using static Paywire.Tests.TestMain;

namespace Paywire.Tests
{
    /// <summary>CallAsync: results through Poll and through a handler, errors, ids and order.</summary>
    public static class AsyncTests
    {
        [Check]
        public static void AsyncResultArrivesThroughPolling()
        {
            using (Client client = ExampleClient())
            {
                ulong callId = client.CallAsync("get_profile");
                var others = new List<JsonObject>();
                JsonValue profile = client.WaitFor(callId, 5000, others);
                Equal("demo-profile-0001", Text(profile, "profile_id"), "profile_id");
                Equal(1, others.Count, "other events: the profile snapshot every client starts with");
                Equal("did_load_latest_profile", (string)others[0]["event"], "the snapshot");
            }
        }

        [Check]
        public static void AsyncErrorIsThrownWithItsCodeAndField()
        {
            using (Client client = ExampleClient())
            {
                ulong callId = client.CallAsync("get_paywall", "{\"placement_id\": 3}");
                PaywireException error = Raises(() => client.WaitFor(callId, 5000));
                Equal("wrong_param", error.Code, "code");
                Equal(Status.InvalidArgument, error.Status, "status");
                Equal("placement_id", Text(error.Details, "field"), "details.field");
            }
        }

        [Check]
        public static void CallIdsRiseAndEventsArriveInSeqOrder()
        {
            using (Client client = ExampleClient())
            {
                for (ulong expected = 1; expected <= 5; expected++) Equal(expected, client.CallAsync("get_log_level"), "call id");
                JsonObject snapshot = client.Poll(2000);
                Check(snapshot != null && (long)snapshot["seq"] == 1, "the profile snapshot first");
                for (long seq = 2; seq <= 6; seq++)
                {
                    JsonObject evt = client.Poll(2000);
                    Check(evt != null, "event " + seq + " arrived");
                    Equal(seq, (long)evt["seq"], "seq");
                    Equal(seq - 1, (long)evt["call_id"], "call_id");
                    Equal("info", (string)Client.ResultOf(evt), "the example config's log level");
                }
                Check(client.Poll(50) == null, "no sixth event");
            }
        }

        [Check]
        public static void AsyncResultArrivesThroughTheHandler()
        {
            using (Client client = ExampleClient())
            {
                var events = new BlockingCollection<JsonObject>();
                client.SetEventHandler(events.Add);
                ulong callId = client.CallAsync("get_paywall", "{\"placement_id\": \"onboarding\"}");
                JsonObject evt;
                Check(events.TryTake(out evt, 5000), "an event delivered to the handler");
                // The profile snapshot every client starts with comes first.
                while ((string)evt["event"] != "call_result") Check(events.TryTake(out evt, 5000), "call_result delivered to the handler");
                Equal(callId, (ulong)evt["call_id"], "call_id");
                Equal("onboarding", Text(Client.ResultOf(evt)["placement"], "developer_id"), "placement");
            }
        }
    }

    /// <summary>Event handlers: replacement, removal, reachability, and faults inside a handler.</summary>
    public static class HandlerTests
    {
        [Check]
        public static void ReplacedHandlerGetsNothingMoreAndRemovalReturnsToPolling()
        {
            int before = NativeHandlers.LiveCount;
            using (Client client = ExampleClient())
            {
                // The first handler also gets the profile snapshot every client starts with.
                var first = new Counter(2);
                client.SetEventHandler(first.OnEvent);
                client.CallAsync("get_log_level");
                Check(first.Await(), "first handler got its events");

                var second = new Counter(2);
                client.SetEventHandler(second.OnEvent);
                client.CallAsync("get_log_level");
                client.CallAsync("get_log_level");
                Check(second.Await(), "second handler got both events");
                Equal(2, first.Count, "the replaced handler got nothing more");

                client.SetEventHandler(null);
                client.CallAsync("get_log_level");
                JsonObject polled = client.Poll(2000);
                Check(polled != null && (long)polled["seq"] == 5, "back to polling, seq continues");
                Equal(2, second.Count, "the removed handler got nothing more");
            }
            Equal(before, NativeHandlers.LiveCount, "Client leaves nothing registered for library threads to call");
        }

        /// <summary>Events queued before a handler is set, and one taken as it is removed, are not lost.</summary>
        [Check]
        public static void NoEventIsLostAcrossHandlerChanges()
        {
            using (Client client = ExampleClient())
            {
                for (int i = 0; i < 3; i++) client.CallAsync("get_log_level");
                var seen = new BlockingCollection<long>();
                client.SetEventHandler(evt => seen.Add((long)evt["seq"]));
                for (int round = 0; round < 20; round++)
                {
                    client.CallAsync("get_log_level");
                    client.SetEventHandler(null);
                    JsonObject evt;
                    while ((evt = client.Poll(20)) != null) seen.Add((long)evt["seq"]);
                    client.SetEventHandler(e => seen.Add((long)e["seq"]));
                }
                client.SetEventHandler(null);
                JsonObject last;
                while ((last = client.Poll(200)) != null) seen.Add((long)last["seq"]);
                long expected = 1;
                foreach (long seq in seen) Equal(expected++, seq, "events in seq order, none lost");
                Equal(25L, expected, "all 24 events seen (the profile snapshot and 23 results)");
            }
        }

        [Check]
        public static void DisposingStopsDeliveryBeforeItReturns()
        {
            Client client = ExampleClient();
            int delivered = 0;
            client.SetEventHandler(evt => { Thread.Sleep(20); Interlocked.Increment(ref delivered); });
            for (int i = 0; i < 5; i++) client.CallAsync("get_log_level");
            Thread.Sleep(30);
            client.Dispose();
            int atDispose = Volatile.Read(ref delivered);
            Thread.Sleep(200);
            Equal(atDispose, Volatile.Read(ref delivered), "no handler ran after Dispose returned");
        }

        /// <summary>The handler is a lambda nobody else references: collection must not break delivery.</summary>
        [Check]
        public static void HandlerSurvivesGarbageCollection()
        {
            using (Client client = ExampleClient())
            {
                var all = new CountdownEvent(200);
                client.SetEventHandler(evt => all.Signal());
                for (int round = 0; round < 4; round++)
                {
                    for (int i = 0; i < 50; i++) client.CallAsync("get_log_level");
                    for (int i = 0; i < 5; i++)
                    {
                        var garbage = new byte[1000][];
                        for (int j = 0; j < garbage.Length; j++) garbage[j] = new byte[1024];
                        GC.Collect();
                        GC.WaitForPendingFinalizers();
                    }
                }
                Check(all.Wait(10000), "all 200 events delivered after collections, " + all.CurrentCount + " missing");
            }
        }

        [Check]
        public static void ExceptionInAHandlerDoesNotStopDelivery()
        {
            var reported = new CountdownEvent(3);
            Action<Exception> onFault = error => reported.Signal();
            Client.HandlerFaulted += onFault;
            try
            {
                using (Client client = ExampleClient())
                {
                    var counter = new Counter(3);
                    client.SetEventHandler(evt =>
                    {
                        counter.OnEvent(evt);
                        throw new InvalidOperationException("a host bug");
                    });
                    for (int i = 0; i < 3; i++) client.CallAsync("get_log_level");
                    Check(counter.Await(), "every event delivered despite the exceptions");
                    Check(reported.Wait(5000), "each exception reported to HandlerFaulted");
                }
            }
            finally
            {
                Client.HandlerFaulted -= onFault;
            }
        }

        [Check]
        public static void DisposeOrReplaceInsideTheOwnHandlerIsRefused()
        {
            using (Client client = ExampleClient())
            {
                Exception outcome = null;
                PaywireException setInside = null;
                var done = new ManualResetEventSlim();
                client.SetEventHandler(evt =>
                {
                    try { client.Dispose(); } catch (Exception error) { outcome = error; }
                    try { client.SetEventHandler(null); } catch (PaywireException error) { setInside = error; }
                    done.Set();
                });
                client.CallAsync("get_log_level");
                Check(done.Wait(5000), "handler ran");
                Check(outcome is InvalidOperationException, "Dispose refused: " + outcome);
                Equal("wrong_param", setInside == null ? null : setInside.Code, "SetEventHandler inside the handler refused");
                Equal("info", (string)client.Call("get_log_level"), "client still usable");
            }
        }

        [Check]
        public static void PollWithAHandlerSetIsWrongParam()
        {
            using (Client client = ExampleClient())
            {
                client.SetEventHandler(evt => { });
                PaywireException error = Raises(() => client.Poll(0));
                Equal("wrong_param", error.Code, "code");
                Equal(Status.InvalidArgument, error.Status, "status");
            }
        }

        /// <summary>Counts events and opens once the expected number arrived.</summary>
        private sealed class Counter
        {
            private readonly CountdownEvent expected;
            private int count;

            internal Counter(int expectedEvents) { expected = new CountdownEvent(expectedEvents); }

            internal int Count { get { return Volatile.Read(ref count); } }

            internal void OnEvent(JsonObject evt)
            {
                Interlocked.Increment(ref count);
                if (!expected.IsSet) expected.Signal();
            }

            internal bool Await() { return expected.Wait(5000); }
        }
    }
}
