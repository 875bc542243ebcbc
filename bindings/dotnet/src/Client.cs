using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Json;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using Paywire.Model;

namespace Paywire
{
    /// <summary>
    /// One Paywire client.
    /// <code>
    /// using (var client = new Paywire.Client("{\"fallback\": {\"path\": \"examples/bundle.json\"}}"))
    /// {
    ///     Paywall paywall = client.GetPaywall(new GetPaywallParams { PlacementId = "onboarding" });
    /// }
    /// </code>
    /// Every wire method is a typed method (TypedMethods.g.cs, generated from the wire schema) with an
    /// ...Async twin returning a Task; <see cref="Call(string, string)"/> is the raw contract.
    /// Every method may be called from any thread; the library serializes a client's calls.
    /// Results are System.Json values; decimals stay decimals (a price of 9.99 stays 9.99).
    /// Dispose the client when done: there is no finalizer, so freeing happens at a point the host
    /// chose, never on the finalizer thread at a time nobody can predict.
    /// </summary>
    public sealed partial class Client : IDisposable
    {
        private IntPtr handle;
        private EventPump pump;
        private AsyncCalls calls;

        /// <summary>
        /// Receives an exception an event handler threw. It must not unwind into the thread that
        /// delivers events, so it comes here; without a subscriber it goes to stderr.
        /// </summary>
        public static event Action<Exception> HandlerFaulted;

        /// <summary>A client configured by JSON text, passed to the library byte for byte; null means {}.</summary>
        public Client(string configJson = null)
        {
            Abi.Load();
            handle = Create(configJson);
            pump = new EventPump(handle);
            calls = new AsyncCalls(PollLibrary);
            RefuseAnotherSchema();
        }

        /// <summary>
        /// The typed layer was generated from one schema version: a library of the same MAJOR and a
        /// MINOR at least the binding's only adds what the tolerant models keep; any other is
        /// refused here, naming both versions.
        /// </summary>
        private void RefuseAnotherSchema()
        {
            JsonValue said;
            ((JsonObject)Call("get_sdk_version")).TryGetValue("schema_version", out said);
            string library = said != null && said.JsonType == JsonType.String ? (string)said : null;
            PaywireException refused = SchemaMismatch(library, Schema.Version);
            if (refused == null) return;
            Dispose();
            throw refused;
        }

        /// <summary>
        /// Null when a library whose schema is <paramref name="library"/> (MAJOR.MINOR; null when it
        /// says none) can serve a binding generated from <paramref name="binding"/>: the same MAJOR,
        /// a MINOR at least the binding's. Else the VERSION_MISMATCH error naming both.
        /// </summary>
        public static PaywireException SchemaMismatch(string library, string binding)
        {
            long[] theirs = MajorMinor(library), ours = MajorMinor(binding);
            if (theirs != null && ours != null && theirs[0] == ours[0] && theirs[1] >= ours[1]) return null;
            var details = new JsonObject { { "library_schema_version", library }, { "binding_schema_version", binding } };
            return new PaywireException(Status.VersionMismatch, "schema_mismatch", "libpaywire speaks wire schema " + library
                + ", this binding was generated from " + binding + ": it needs the same MAJOR and a MINOR at least "
                + binding + " (use the binding of the library's release)", details);
        }

        private static long[] MajorMinor(string text)
        {
            if (text == null || !System.Text.RegularExpressions.Regex.IsMatch(text, "^[0-9]{1,9}\\.[0-9]{1,9}$")) return null;
            string[] parts = text.Split('.');
            return new long[] { long.Parse(parts[0], System.Globalization.CultureInfo.InvariantCulture),
                                long.Parse(parts[1], System.Globalization.CultureInfo.InvariantCulture) };
        }

        /// <summary>A client configured by a JSON object (README "Client config").</summary>
        public Client(JsonObject config) : this(config == null ? null : config.ToString()) { }

        /// <summary>The loaded library's ABI version (equal to <see cref="Abi.AbiVersion"/>: checked at load).</summary>
        public static uint AbiVersion { get { Abi.Load(); return LoadedAbiVersion(); } }

        /// <summary>The loaded library's version, e.g. "0.2.0".</summary>
        public static string Version { get { Abi.Load(); return LoadedVersion(); } }

        // Mono binds an extern when it compiles the first method that calls it, so the methods that
        // run first call Abi.Load() and leave every extern to a method compiled after it (not inlined).

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static IntPtr Create(string configJson)
        {
            IntPtr client, outJson;
            int status = Abi.paywire_client_new(Abi.CString(configJson), out client, out outJson);
            Unwrap(status, Abi.TakeString(outJson));
            return client;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static uint LoadedAbiVersion()
        {
            return Abi.paywire_abi_version();
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static string LoadedVersion()
        {
            return Abi.BorrowString(Abi.paywire_version());
        }

        /// <summary>
        /// Calls a method and returns its result (null for a JSON null); throws
        /// <see cref="PaywireException"/> with the wire error code when the call fails.
        /// </summary>
        public JsonValue Call(string method, string paramsJson = null)
        {
            if (method == null) throw new ArgumentNullException("method");
            IntPtr outJson;
            int status = Abi.paywire_client_call(Live(), Abi.CString(method), Abi.CString(paramsJson), out outJson);
            return Unwrap(status, Abi.TakeString(outJson));
        }

        /// <summary>Calls a method with params given as a JSON value.</summary>
        public JsonValue Call(string method, JsonValue parameters)
        {
            return Call(method, parameters == null ? null : parameters.ToString());
        }

        private JsonValue CallTyped(string method, JsonValue parameters)
        {
            return Call(method, parameters);
        }

        private Task<JsonValue> CallTypedAsync(string method, JsonValue parameters)
        {
            string text = parameters.ToString();
            return calls.Start(() => CallAsync(method, text));
        }

        /// <summary>
        /// Queues a method and returns at once with its call id; the result arrives as a call_result
        /// event carrying that id (see <see cref="ResultOf"/> and <see cref="WaitFor"/>).
        /// </summary>
        public ulong CallAsync(string method, string paramsJson = null)
        {
            if (method == null) throw new ArgumentNullException("method");
            ulong callId;
            int status = Abi.paywire_client_call_async(Live(), Abi.CString(method), Abi.CString(paramsJson), out callId);
            if (status != (int)Status.Ok) throw PaywireException.FromStatus(StatusCodes.Of(status), "CallAsync");
            return callId;
        }

        /// <summary>Queues a method with params given as a JSON value.</summary>
        public ulong CallAsync(string method, JsonValue parameters)
        {
            return CallAsync(method, parameters == null ? null : parameters.ToString());
        }

        /// <summary>
        /// The next event, or null when none came within <paramref name="timeoutMs"/> (0 returns at
        /// once). Only without a handler; throws <see cref="PaywireException"/> (closed when the client
        /// is disposed while waiting).
        /// </summary>
        public JsonObject Poll(int timeoutMs)
        {
            Live();
            if (pump.Active) throw new PaywireException(Status.InvalidArgument, "wrong_param", "Poll while an event handler is set", null);
            JsonObject held = pump.TakePending() ?? calls.TakeHeld();
            if (held != null) return held;
            var clock = Stopwatch.StartNew();
            while (true)
            {
                JsonObject evt = PollLibrary((int)Math.Max(0, timeoutMs - clock.ElapsedMilliseconds));
                if (evt == null || !calls.Offer(evt)) return evt;  // else a typed async call's result: its task has it
            }
        }

        /// <summary>The next typed event (<see cref="Events.Parse"/>), or null when none came within the timeout.</summary>
        public IEvent PollEvent(int timeoutMs)
        {
            JsonObject evt = Poll(timeoutMs);
            return evt == null ? null : Events.Parse(evt);
        }

        /// <summary>The library's next event, as it came.</summary>
        private JsonObject PollLibrary(int timeoutMs)
        {
            IntPtr client = Live();
            if (pump.Active) throw new PaywireException(Status.InvalidArgument, "wrong_param", "Poll while an event handler is set", null);
            IntPtr outJson;
            int status = Abi.paywire_client_poll(client, timeoutMs, out outJson);
            string text = Abi.TakeString(outJson);
            if (status == (int)Status.Ok) return Parse(text) as JsonObject;
            if (status == (int)Status.Timeout) return null;
            Unwrap(status, text);
            throw new PaywireException(StatusCodes.Of(status), StatusCodes.Of(status).WireCode(), "poll failed", null);
        }

        /// <summary>
        /// Polls until the call_result of <paramref name="callId"/> arrives and returns its result (or
        /// throws its error); other events seen meanwhile are added to <paramref name="others"/>.
        /// </summary>
        public JsonValue WaitFor(ulong callId, int timeoutMs, IList<JsonObject> others = null)
        {
            var clock = Stopwatch.StartNew();
            for (long left = timeoutMs; left >= 0; left = timeoutMs - clock.ElapsedMilliseconds)
            {
                JsonObject evt = Poll((int)left);
                if (evt == null) continue;
                if (IsCallResult(evt, callId)) return ResultOf(evt);
                if (others != null) others.Add(evt);
            }
            throw new PaywireException(Status.Timeout, "timeout", "no call_result for call " + callId + " within " + timeoutMs + " ms", null);
        }

        /// <summary>The result a call_result event carries, or its error thrown as an exception.</summary>
        public static JsonValue ResultOf(JsonObject callResult)
        {
            JsonValue status, envelope;
            callResult.TryGetValue("status", out status);
            callResult.TryGetValue("envelope", out envelope);
            return UnwrapEnvelope(status != null ? (int)status : (int)Status.Failed, envelope);
        }

        /// <summary>
        /// Sets or replaces the event handler; null returns to polling. Events arrive in seq order,
        /// one at a time, on a thread this binding owns (see <see cref="EventPump"/> for why not the
        /// library's); in Unity, queue what the handler receives for the main thread. The replaced
        /// handler receives no event after this returns; events already queued go to the new one.
        /// </summary>
        public void SetEventHandler(Action<JsonObject> handler)
        {
            Live();
            if (pump.IsDeliveryThread)
            {
                throw new PaywireException(Status.InvalidArgument, "wrong_param", "SetEventHandler inside the client's own handler", null);
            }
            if (handler == null)
            {
                pump.Stop();
                calls.HandlerSet(false);
                return;
            }
            calls.HandlerSet(true);
            pump.Set(evt => { if (!calls.Offer(evt)) handler(evt); });
        }

        /// <summary><see cref="SetEventHandler"/> with each event parsed into its model (<see cref="Events.Parse"/>).</summary>
        public void SetTypedEventHandler(Action<IEvent> handler)
        {
            SetEventHandler(handler == null ? (Action<JsonObject>)null : evt => handler(Events.Parse(evt)));
        }

        /// <summary>
        /// Frees the client: waits for a call in progress, stops event delivery, and returns once no
        /// handler can run. Later calls throw closed. Safe twice; not from inside its own handler.
        /// </summary>
        public void Dispose()
        {
            if (pump != null && pump.IsDeliveryThread) throw new InvalidOperationException("a client cannot be disposed inside its own event handler");
            IntPtr client = Interlocked.Exchange(ref handle, IntPtr.Zero);
            if (client == IntPtr.Zero) return;
            Abi.paywire_client_free(client);
            pump.Stop();
            calls.FailAll(new PaywireException(Status.Closed, "closed", "the client was disposed", null));
        }

        /// <summary>Hands an exception a handler threw to <see cref="HandlerFaulted"/>, or to stderr.</summary>
        internal static void ReportFault(Exception error)
        {
            try
            {
                Action<Exception> faulted = HandlerFaulted;
                if (faulted != null) faulted(error);
                else Console.Error.WriteLine("paywire: an event handler threw: " + error);
            }
            catch (Exception)
            {
                // The reporter itself failed; nothing may escape into the delivering thread.
            }
        }

        private IntPtr Live()
        {
            IntPtr client = Volatile.Read(ref handle);
            if (client == IntPtr.Zero) throw new PaywireException(Status.Closed, "closed", "the client is disposed", null);
            return client;
        }

        private static bool IsCallResult(JsonObject evt, ulong callId)
        {
            JsonValue name, id;
            return evt.TryGetValue("event", out name) && name != null && name.JsonType == JsonType.String && (string)name == "call_result"
                && evt.TryGetValue("call_id", out id) && id != null && id.JsonType == JsonType.Number && (ulong)id == callId;
        }

        private static void Check(int status, string what)
        {
            if (status != (int)Status.Ok) throw PaywireException.FromStatus(StatusCodes.Of(status), what);
        }

        /// <summary>The success of an envelope text, or its error thrown; OutOfMemoryException for none.</summary>
        private static JsonValue Unwrap(int status, string envelopeText)
        {
            if (envelopeText == null) throw new OutOfMemoryException("libpaywire could not allocate the result (" + StatusCodes.Of(status).AbiName() + ")");
            return UnwrapEnvelope(status, Parse(envelopeText));
        }

        private static JsonValue UnwrapEnvelope(int status, JsonValue envelope)
        {
            var obj = envelope as JsonObject;
            if (obj == null) throw new PaywireException(Status.Internal, "internal", "not an envelope", null);
            JsonValue member;
            if (obj.TryGetValue("error", out member) && member is JsonObject) throw PaywireException.FromError(StatusCodes.Of(status), (JsonObject)member);
            if (!obj.TryGetValue("success", out member)) return null;
            Warnings.Report(member);
            return member;
        }

        private static JsonValue Parse(string text)
        {
            try
            {
                return JsonValue.Parse(text);
            }
            catch (Exception error) when (!(error is OutOfMemoryException))
            {
                throw new PaywireException(Status.Internal, "internal", "libpaywire returned text that is not JSON", null);
            }
        }
    }
}
