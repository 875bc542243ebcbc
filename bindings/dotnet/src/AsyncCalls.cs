using System;
using System.Collections.Generic;
using System.Json;
using System.Threading;
using System.Threading.Tasks;

namespace Paywire
{
    /// <summary>
    /// The tasks of a client's typed async calls (<c>await client.GetPaywallAsync(...)</c>), built on
    /// paywire_client_call_async: each call's call_result event completes its task.
    /// </summary>
    /// <remarks>
    /// Whoever sees that event completes it: the event handler's pump when a handler is set (the
    /// event is not passed on), <see cref="Client.Poll"/> when the host polls, and otherwise a thread
    /// of this class that polls only while such tasks wait and no handler is set, so that an awaited
    /// call completes with nothing else running. Other events it takes are held, in order, for the
    /// host's next Poll. Continuations run on the thread pool, never on a polling thread.
    /// </remarks>
    internal sealed class AsyncCalls
    {
        private const int SliceMs = 50;

        private readonly Func<int, JsonObject> pollLibrary;
        private readonly object gate = new object();
        private readonly Dictionary<ulong, TaskCompletionSource<JsonValue>> pending = new Dictionary<ulong, TaskCompletionSource<JsonValue>>();
        private readonly Queue<JsonObject> held = new Queue<JsonObject>();
        private bool handlerSet;
        private Thread pump;

        internal AsyncCalls(Func<int, JsonObject> pollLibrary)
        {
            this.pollLibrary = pollLibrary;
        }

        /// <summary>
        /// Queues the call through <paramref name="callAsync"/> and returns its task. A call the
        /// library refuses at once (Busy: too many answers not yet taken; Closed) gives a task that
        /// has already failed with that status, so every task settles.
        /// </summary>
        internal Task<JsonValue> Start(Func<ulong> callAsync)
        {
            var source = new TaskCompletionSource<JsonValue>(TaskCreationOptions.RunContinuationsAsynchronously);
            lock (gate)
            {
                ulong callId;
                try
                {
                    callId = callAsync();
                }
                catch (PaywireException refused)
                {
                    source.SetException(refused);
                    return source.Task;
                }
                // Registered under the lock Offer takes: a fast call_result still finds its task
                // (paywire_client_call_async only queues, it never waits for a handler).
                pending[callId] = source;
                if (!handlerSet && pump == null)
                {
                    pump = new Thread(Run) { IsBackground = true, Name = "paywire-async-calls" };
                    pump.Start();
                }
            }
            return source.Task;
        }

        /// <summary>True when <paramref name="evt"/> was the call_result of a typed async call: it completed that task.</summary>
        internal bool Offer(JsonObject evt)
        {
            JsonValue name, id;
            if (!evt.TryGetValue("event", out name) || name == null || name.JsonType != JsonType.String || (string)name != "call_result") return false;
            if (!evt.TryGetValue("call_id", out id) || id == null || id.JsonType != JsonType.Number) return false;
            TaskCompletionSource<JsonValue> source;
            lock (gate)
            {
                if (!pending.TryGetValue((ulong)id, out source)) return false;
                pending.Remove((ulong)id);
            }
            try
            {
                source.SetResult(Client.ResultOf(evt));
            }
            catch (Exception error)
            {
                source.SetException(error);
            }
            return true;
        }

        /// <summary>An event the pump took that was not a typed call's: the host's Poll returns it first.</summary>
        internal JsonObject TakeHeld()
        {
            lock (gate) return held.Count > 0 ? held.Dequeue() : null;
        }

        /// <summary>With a handler set, the handler's pump completes the tasks and this one stops.</summary>
        internal void HandlerSet(bool set)
        {
            lock (gate) handlerSet = set;
        }

        /// <summary>Fails every waiting task (the client was disposed: no call_result will come).</summary>
        internal void FailAll(Exception error)
        {
            List<TaskCompletionSource<JsonValue>> failed;
            lock (gate)
            {
                failed = new List<TaskCompletionSource<JsonValue>>(pending.Values);
                pending.Clear();
            }
            foreach (var source in failed) source.TrySetException(error);
        }

        private void Run()
        {
            while (true)
            {
                lock (gate)
                {
                    if (pending.Count == 0 || handlerSet) { pump = null; return; }
                }
                JsonObject evt;
                try
                {
                    evt = pollLibrary(SliceMs);
                }
                catch (PaywireException error)
                {
                    lock (gate) if (handlerSet) continue;  // the handler's pump answers now
                    FailAll(error);  // disposed: no call_result will come
                    continue;
                }
                if (evt != null && !Offer(evt))
                {
                    lock (gate) held.Enqueue(evt);
                }
            }
        }
    }
}
