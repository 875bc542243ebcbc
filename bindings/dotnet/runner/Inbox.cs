using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Json;
using System.Threading;

namespace Paywire.Conformance
{
    /// <summary>
    /// The events a named client's handler received, waiting for drain_events, and how many times the
    /// library released one of its handlers (user_data_frees). Every handler set on the client is
    /// registered with this inbox through the binding's <see cref="NativeHandlers"/>, so the vectors
    /// exercise the same callback path as <see cref="Client"/>.
    /// </summary>
    internal sealed class Inbox : NativeHandlers.IHandler
    {
        private readonly object gate = new object();
        private List<string> events = new List<string>();
        private int frees;

        public void OnEvent(string eventJson)
        {
            string item = OneLineJson(eventJson) ?? new Reply().Add("unparseable_event", eventJson).ToString();
            lock (gate)
            {
                events.Add(item);
                Monitor.PulseAll(gate);
            }
        }

        public void OnRelease()
        {
            lock (gate) frees++;
        }

        /// <summary>A new client under the same name counts its own releases, as the C runner does.</summary>
        internal void ResetFrees()
        {
            lock (gate) frees = 0;
        }

        internal int Frees
        {
            get { lock (gate) return frees; }
        }

        /// <summary>Waits until <paramref name="count"/> events arrived or the timeout passed; takes all that came.</summary>
        internal Reply Drain(long count, long timeoutMs)
        {
            var clock = Stopwatch.StartNew();
            lock (gate)
            {
                while (events.Count < count)
                {
                    long left = timeoutMs - clock.ElapsedMilliseconds;
                    if (left <= 0) break;
                    Monitor.Wait(gate, TimeSpan.FromMilliseconds(left));
                }
                string array = "[" + string.Join(",", events) + "]";
                events = new List<string>();
                return new Reply().AddVerbatim("events", array).Add("user_data_frees", (long)frees);
            }
        }

        /// <summary>
        /// The event as it goes into the reply: verbatim when it is one JSON value on one line,
        /// re-printed when it spans lines, null when it is not JSON.
        /// </summary>
        private static string OneLineJson(string text)
        {
            JsonValue parsed;
            try
            {
                parsed = JsonValue.Parse(text);
            }
            catch (Exception)
            {
                return null;
            }
            if (text.IndexOf('\n') < 0 && text.IndexOf('\r') < 0) return text;
            return parsed == null ? "null" : parsed.ToString();
        }
    }
}
