namespace Paywire
{
    /// <summary>The pinned status codes of the C ABI (paywire.h). Never renumbered.</summary>
    public enum Status
    {
        Ok = 0,
        Failed = -1,
        InvalidArgument = -2,
        InvalidUtf8 = -3,
        InvalidJson = -4,
        UnknownMethod = -5,
        VersionMismatch = -6,
        InvalidHandle = -7,
        Closed = -8,
        Timeout = -9,
        Internal = -10,
        NoMemory = -11,
        /// <summary>The client owes the host what it has not taken yet; nothing was done (retry after taking events).</summary>
        Busy = -12,
    }

    /// <summary>What each status means on the wire.</summary>
    public static class StatusCodes
    {
        /// <summary>The status of a returned integer; one this binding does not know is Failed (paywire.h).</summary>
        public static Status Of(int code)
        {
            return code <= 0 && code >= (int)Status.Busy ? (Status)code : Status.Failed;
        }

        /// <summary>
        /// The error.code the library writes with this status. A binding needs it when a status
        /// comes with no envelope (a refused CallAsync): the status name ("invalid_argument") is not
        /// a code the wire uses, and hosts that switch on codes would see a different one per platform.
        /// </summary>
        public static string WireCode(this Status status)
        {
            switch (status)
            {
                case Status.Ok: return null;
                case Status.InvalidArgument: return "wrong_param";
                case Status.InvalidUtf8: return "invalid_utf8";
                case Status.InvalidJson: return "decoding_failed";
                case Status.UnknownMethod: return "unknown_method";
                case Status.VersionMismatch: return "wrong_fallback_version";
                case Status.InvalidHandle: return "invalid_handle";
                case Status.Closed: return "closed";
                case Status.Timeout: return "timeout";
                case Status.Busy: return "busy";
                default: return "internal";
            }
        }

        /// <summary>The name paywire_status_name gives, e.g. "INVALID_UTF8".</summary>
        public static string AbiName(this Status status)
        {
            switch (status)
            {
                case Status.Ok: return "OK";
                case Status.Failed: return "FAILED";
                case Status.InvalidArgument: return "INVALID_ARGUMENT";
                case Status.InvalidUtf8: return "INVALID_UTF8";
                case Status.InvalidJson: return "INVALID_JSON";
                case Status.UnknownMethod: return "UNKNOWN_METHOD";
                case Status.VersionMismatch: return "VERSION_MISMATCH";
                case Status.InvalidHandle: return "INVALID_HANDLE";
                case Status.Closed: return "CLOSED";
                case Status.Timeout: return "TIMEOUT";
                case Status.Internal: return "INTERNAL";
                case Status.NoMemory: return "NOMEM";
                case Status.Busy: return "BUSY";
                default: return "UNKNOWN";
            }
        }
    }
}
