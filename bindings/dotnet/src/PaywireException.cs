using System;
using System.Json;

namespace Paywire
{
    /// <summary>
    /// A failed call. <see cref="Code"/> is the wire error code (<c>not_found</c>, <c>wrong_param</c>,
    /// ...), the value hosts switch on; <see cref="Status"/> is the ABI status that came with it;
    /// <see cref="Details"/> carries <c>field</c>, <c>underlying_error</c> and the like. The message
    /// is for people and may change.
    /// </summary>
    public sealed class PaywireException : Exception
    {
        public PaywireException(Status status, string code, string message, JsonObject details)
            : base(code + ": " + message)
        {
            Status = status;
            Code = code;
            Details = details ?? new JsonObject();
        }

        /// <summary>The wire error code, from the closed list in schema/paywire.schema.json.</summary>
        public string Code { get; private set; }

        /// <summary>The ABI status returned with the error.</summary>
        public Status Status { get; private set; }

        /// <summary>error.details; an empty object when there were none.</summary>
        public JsonObject Details { get; private set; }

        /// <summary>The exception for an envelope's error object, with the status returned beside it.</summary>
        internal static PaywireException FromError(Status status, JsonObject error)
        {
            return new PaywireException(status, StringMember(error, "code") ?? status.WireCode(),
                StringMember(error, "message") ?? "", error.ContainsKey("details") ? error["details"] as JsonObject : null);
        }

        /// <summary>The exception for a status that came without an envelope (a refused CallAsync).</summary>
        internal static PaywireException FromStatus(Status status, string what)
        {
            string reason = status == Status.Busy
                ? ": the client already owes the host async_call_limit call_results it has not taken (await the calls already made, then retry)"
                : "";
            return new PaywireException(status, status.WireCode(), what + " refused: " + status.AbiName() + reason, null);
        }

        private static string StringMember(JsonObject value, string key)
        {
            JsonValue member;
            return value.TryGetValue(key, out member) && member != null && member.JsonType == JsonType.String ? (string)member : null;
        }
    }
}
