using System;
using System.Json;
using System.Threading;

namespace Paywire
{
    /// <summary>
    /// Delivers a client's events to its handler on a thread this binding owns, by polling.
    /// </summary>
    /// <remarks>
    /// The library can call a handler itself, on its own threads (<see cref="NativeHandlers"/>; the
    /// conformance runner drives that path). <see cref="Client"/> does not, because of the Mono
    /// that Debian ships (6.8): a library thread that ran managed code is attached to the runtime,
    /// and when it later exits during a garbage collection, its detach and the collection wait for
    /// each other for ever (seen here within a second of GC.Collect calls; Mono's own threads are not
    /// affected). A managed thread blocked in paywire_client_poll is an ordinary thread to the
    /// runtime. The guarantees stay those of paywire.h: events in seq order, one at a time, never on
    /// the caller's stack; a replaced handler gets nothing after SetEventHandler returns; no handler
    /// runs after Dispose returns; Poll is refused (wrong_param) while a handler is set.
    /// </remarks>
    internal sealed class EventPump
    {
        /// <summary>How long one poll waits, so that removing the handler takes at most this long.</summary>
        private const int SliceMs = 50;

        private readonly IntPtr client;
        private readonly object gate = new object();
        private readonly object delivery = new object();
        private Action<JsonObject> handler;
        private Thread thread;
        /// <summary>An event the pump took as its handler was removed: the next Poll returns it first.</summary>
        private JsonObject pending;

        internal EventPump(IntPtr client)
        {
            this.client = client;
        }

        /// <summary>True while a handler is set (Poll is refused then).</summary>
        internal bool Active
        {
            get { lock (gate) return handler != null; }
        }

        /// <summary>The thread delivering events, to refuse Dispose and SetEventHandler from inside a handler.</summary>
        internal bool IsDeliveryThread
        {
            get { lock (gate) return thread == Thread.CurrentThread; }
        }

        /// <summary>Sets or replaces the handler; returns once the old one can receive nothing more.</summary>
        internal void Set(Action<JsonObject> next)
        {
            lock (delivery)
            {
                lock (gate)
                {
                    handler = next;
                    if (thread != null) return;
                    thread = new Thread(Run) { IsBackground = true, Name = "paywire-events" };
                    thread.Start();
                }
            }
        }

        /// <summary>Removes the handler and waits for the pump to stop polling (at most one slice).</summary>
        internal void Stop()
        {
            Thread running;
            lock (delivery)
            {
                lock (gate)
                {
                    handler = null;
                    running = thread;
                }
            }
            if (running != null) running.Join();
        }

        /// <summary>The event the pump was holding when its handler was removed, if any.</summary>
        internal JsonObject TakePending()
        {
            lock (gate)
            {
                JsonObject taken = pending;
                pending = null;
                return taken;
            }
        }

        private void Run()
        {
            while (true)
            {
                JsonObject next;
                lock (gate)
                {
                    if (handler == null) { thread = null; return; }
                    next = pending;
                    pending = null;
                }
                if (next == null)
                {
                    IntPtr outJson;
                    int status = Abi.paywire_client_poll(client, SliceMs, out outJson);
                    string text = Abi.TakeString(outJson);
                    if (status == (int)Status.Timeout) continue;
                    if (status != (int)Status.Ok)
                    {
                        // CLOSED or INVALID_HANDLE: the client was disposed; nothing more will come.
                        lock (gate) { thread = null; handler = null; }
                        return;
                    }
                    next = JsonValue.Parse(text) as JsonObject;
                }
                Deliver(next);
            }
        }

        private void Deliver(JsonObject evt)
        {
            lock (delivery)
            {
                Action<JsonObject> current;
                lock (gate)
                {
                    current = handler;
                    if (current == null) { pending = evt; return; }
                }
                try
                {
                    current(evt);
                }
                catch (Exception error)
                {
                    Client.ReportFault(error);
                }
            }
        }
    }
}
