package dev.paywire;

/**
 * The pinned status codes of the C ABI (paywire.h). Never renumbered.
 *
 * <p>{@link #wireCode()} is the {@code error.code} the library writes with each status. A binding
 * needs it when a status comes with no envelope (a refused {@code callAsync}): mapping the status
 * name instead ("invalid_argument") would give a host a code the wire never uses, the way
 * SDK bridges end up with error codes that differ per platform.
 */
public enum Status {
    OK(0, null),
    FAILED(-1, "internal"),
    INVALID_ARGUMENT(-2, "wrong_param"),
    INVALID_UTF8(-3, "invalid_utf8"),
    INVALID_JSON(-4, "decoding_failed"),
    UNKNOWN_METHOD(-5, "unknown_method"),
    VERSION_MISMATCH(-6, "wrong_fallback_version"),
    INVALID_HANDLE(-7, "invalid_handle"),
    CLOSED(-8, "closed"),
    TIMEOUT(-9, "timeout"),
    INTERNAL(-10, "internal"),
    NOMEM(-11, "internal"),
    /** The client owes the host what it has not taken yet; nothing was done (retry after taking events). */
    BUSY(-12, "busy");

    private final int code;
    private final String wireCode;

    Status(int code, String wireCode) {
        this.code = code;
        this.wireCode = wireCode;
    }

    /** The pinned integer, as the C functions return it. */
    public int code() {
        return code;
    }

    /** The wire error code that goes with this status when there is no envelope to read. */
    public String wireCode() {
        return wireCode;
    }

    /** The status of a returned integer; one this binding does not know is FAILED (paywire.h). */
    public static Status of(int code) {
        for (Status status : values()) {
            if (status.code == code) {
                return status;
            }
        }
        return FAILED;
    }
}
