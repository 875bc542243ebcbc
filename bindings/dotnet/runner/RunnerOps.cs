using System;
using System.Collections.Generic;
using System.Json;
using System.Runtime.InteropServices;
using System.Threading;

namespace Paywire.Conformance
{
    /// <summary>
    /// The primitive ops of tests/conformance/README.md, op for op as the C runner
    /// (Sources/paywire-harness/harness.c) runs them, through the binding's <see cref="Abi"/> layer.
    /// </summary>
    internal sealed class RunnerOps
    {
        /// <summary>A client made by client_new, under the name the case gave it.</summary>
        private sealed class NamedClient
        {
            internal IntPtr Client;
            internal bool Freed;
            internal readonly Inbox Inbox = new Inbox();
        }

        private readonly Dictionary<string, NamedClient> clients = new Dictionary<string, NamedClient>();
        /// <summary>A real address that is not a client ("made_up_heap"); kept for the process.</summary>
        private readonly IntPtr madeUpObject = Marshal.AllocHGlobal(64);

        internal Reply Run(JsonObject op)
        {
            string kind = OpArguments.String(op, "op");
            if (kind == null) return Reply.RunnerError("op is missing");
            switch (kind)
            {
                case "hello": return Hello();
                case "client_new": return ClientNew(op);
                case "call":
                case "call_raw": return Call(op);
                case "call_async": return CallAsync(op);
                case "poll": return Poll(Resolve(OpArguments.String(op, "client")), op);
                case "poll_while_freeing": return PollWhileFreeing(op);
                case "set_event_handler": return SetEventHandler(op);
                case "drain_events": return DrainEvents(op);
                case "client_free": return ClientFree(op);
                case "string_free_null":
                    Abi.paywire_string_free(IntPtr.Zero);
                    return new Reply();
                case "decode": return Decode(op);
                default: return Reply.RunnerError("unknown op").Add("op", kind);
            }
        }

        /// <summary>
        /// Reads a library's JSON (a result of <c>method</c>, or an event) into the typed models and
        /// writes it back (tests/conformance/future.py: what a newer library may write).
        /// </summary>
        private static Reply Decode(JsonObject op)
        {
            JsonValue data = JsonValue.Parse(OpArguments.String(op, "json_text"));
            if (OpArguments.String(op, "kind") == "event")
            {
                Paywire.Model.IEvent typed = Paywire.Model.Events.Parse(data);
                return new Reply().Add("decoded_text", typed.ToJson().ToString())
                    .Add("event_type", typed is Paywire.Model.UnknownEvent ? "unknown" : "known");
            }
            Func<JsonValue, JsonValue> roundTrip;
            if (!Paywire.Model.Results.ResultRoundTrip.TryGetValue(OpArguments.String(op, "method") ?? "", out roundTrip))
                return Reply.RunnerError("no typed result for this method");
            JsonValue again = roundTrip(data);
            return new Reply().Add("decoded_text", again == null ? "null" : again.ToString());
        }

        /// <summary>Frees every client a case left live, as a host must before it exits.</summary>
        internal void FreeLiveClients()
        {
            foreach (NamedClient named in clients.Values)
            {
                if (named.Freed) continue;
                Abi.paywire_client_free(named.Client);
                named.Freed = true;
            }
        }

        private static Reply Hello()
        {
            var names = new JsonObject();
            for (int status = -13; status <= 1; status++) names[status.ToString()] = Abi.StatusName(status);
            return new Reply().Add("runner", "dotnet").Add("abi_version", (long)Abi.paywire_abi_version())
                .Add("version", Abi.BorrowString(Abi.paywire_version())).Add("header_abi_version", (long)Abi.AbiVersion)
                .AddJson("status_names", names);
        }

        private Reply ClientNew(JsonObject op)
        {
            string name = OpArguments.String(op, "client") ?? "main";
            byte[] config = Abi.CString(OpArguments.Bytes(op, "config", true));
            IntPtr client = IntPtr.Zero, outJson;
            int status = OpArguments.IsTrue(op, "null_out_client")
                ? Abi.paywire_client_new_null_out(config, IntPtr.Zero, out outJson)
                : Abi.paywire_client_new(config, out client, out outJson);
            Reply reply = Result(status, outJson, "envelope").Add("client_set", client != IntPtr.Zero);
            if (client != IntPtr.Zero)
            {
                NamedClient named;
                if (!clients.TryGetValue(name, out named)) clients[name] = named = new NamedClient();
                named.Client = client;
                named.Freed = false;
                named.Inbox.ResetFrees();
            }
            return reply;
        }

        /// <summary>call and call_raw: call_raw's arguments come as *_hex bytes, which may be invalid UTF-8.</summary>
        private Reply Call(JsonObject op)
        {
            IntPtr client = Resolve(OpArguments.String(op, "client"));
            byte[] method = Abi.CString(OpArguments.Bytes(op, "method", false));
            byte[] parameters = Abi.CString(OpArguments.Bytes(op, "params", true));
            IntPtr outJson = IntPtr.Zero;
            int status = OpArguments.IsTrue(op, "null_out_json")
                ? Abi.paywire_client_call_null_out(client, method, parameters, IntPtr.Zero)
                : Abi.paywire_client_call(client, method, parameters, out outJson);
            return Result(status, outJson, "envelope");
        }

        private Reply CallAsync(JsonObject op)
        {
            IntPtr client = Resolve(OpArguments.String(op, "client"));
            byte[] method = Abi.CString(OpArguments.Bytes(op, "method", false));
            byte[] parameters = Abi.CString(OpArguments.Bytes(op, "params", true));
            ulong callId = 0;
            int status = OpArguments.IsTrue(op, "null_out_call_id")
                ? Abi.paywire_client_call_async_null_out(client, method, parameters, IntPtr.Zero)
                : Abi.paywire_client_call_async(client, method, parameters, out callId);
            return StatusReply(status).AddJson("call_id", new JsonPrimitive(callId));
        }

        private static Reply Poll(IntPtr client, JsonObject op)
        {
            IntPtr outJson;
            int status = Abi.paywire_client_poll(client, unchecked((int)OpArguments.Integer(op, "timeout_ms")), out outJson);
            return Result(status, outJson, status == 0 ? "event" : "envelope");
        }

        /// <summary>Blocks in poll while another thread frees the client: the poll must return CLOSED.</summary>
        private Reply PollWhileFreeing(JsonObject op)
        {
            NamedClient named;
            if (!clients.TryGetValue(OpArguments.String(op, "client") ?? "", out named)) return Reply.RunnerError("unknown client");
            int delay = (int)OpArguments.Integer(op, "free_after_ms");
            IntPtr client = named.Client;
            var freer = new Thread(() =>
            {
                Thread.Sleep(delay);
                Abi.paywire_client_free(client);
            });
            freer.Start();
            Reply reply = Poll(client, op);
            freer.Join();
            named.Freed = true;
            return reply;
        }

        private Reply SetEventHandler(JsonObject op)
        {
            string name = OpArguments.String(op, "client");
            NamedClient named = Named(name);
            IntPtr client = Resolve(name);
            bool enabled = !OpArguments.IsFalse(op, "enabled");
            int status;
            if (named != null && enabled)
            {
                IntPtr token = NativeHandlers.Register(named.Inbox);
                status = Abi.paywire_client_set_event_handler(client, NativeHandlers.Events, token, NativeHandlers.Release);
                if (status != 0) NativeHandlers.Unregister(token);
            }
            else
            {
                status = Abi.paywire_client_set_event_handler(client, enabled ? NativeHandlers.Events : null, IntPtr.Zero, null);
            }
            return StatusReply(status);
        }

        private Reply DrainEvents(JsonObject op)
        {
            NamedClient named = Named(OpArguments.String(op, "client"));
            if (named == null) return Reply.RunnerError("unknown client");
            return named.Inbox.Drain(OpArguments.Integer(op, "count"), OpArguments.Integer(op, "timeout_ms"));
        }

        private Reply ClientFree(JsonObject op)
        {
            string name = OpArguments.String(op, "client");
            NamedClient named = Named(name);
            Abi.paywire_client_free(Resolve(name));
            var reply = new Reply();
            if (named != null)
            {
                named.Freed = true;
                reply.Add("user_data_frees", (long)named.Inbox.Frees);
            }
            return reply;
        }

        private NamedClient Named(string name)
        {
            NamedClient named;
            return name != null && clients.TryGetValue(name, out named) ? named : null;
        }

        /// <summary>
        /// Client references: a name from client_new, "null", "made_up" (a small integer as a
        /// pointer), "made_up_heap" (a real address that is not a client), or "freed:NAME".
        /// </summary>
        private IntPtr Resolve(string reference)
        {
            if (reference == null || reference == "null") return IntPtr.Zero;
            if (reference == "made_up") return new IntPtr(0x1234);
            if (reference == "made_up_heap") return madeUpObject;
            NamedClient named = Named(reference.StartsWith("freed:", StringComparison.Ordinal) ? reference.Substring(6) : reference);
            return named == null ? IntPtr.Zero : named.Client;
        }

        /// <summary>status, status_name, the out string as JSON under <paramref name="key"/> (or unparseable), and raw.</summary>
        private static Reply Result(int status, IntPtr outJson, string key)
        {
            Reply reply = StatusReply(status);
            string text = Abi.TakeString(outJson);
            if (text == null) return reply.AddJson(key, null);
            if (!reply.TryAddJson(key, text)) reply.Add("unparseable", text);
            // The exact text too: the kit checks that amounts leave the library as written.
            return reply.Add("raw", text);
        }

        private static Reply StatusReply(int status)
        {
            return new Reply().Add("status", (long)status).Add("status_name", Abi.StatusName(status));
        }
    }
}
