package dev.paywire;

import com.sun.jna.Callback;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;

import java.nio.charset.StandardCharsets;

/**
 * The C ABI of libpaywire (include/paywire.h) as JNA declares it: the layer {@link Client} is
 * built on, and what the conformance runner drives directly, because it must pass NULL pointers,
 * stale handles and bytes that are not UTF-8.
 *
 * <p>Every string the library returns is declared {@link Pointer}, never {@code String}: a
 * {@code String} return would copy the text and lose the pointer, so it could never be given back
 * to {@code paywire_string_free}. {@link #takeString} copies and frees. Strings passed in are
 * NUL-terminated UTF-8 bytes in {@link Memory} the caller closes, so no platform default charset
 * ({@code jna.encoding}, {@code file.encoding}) can change what reaches the library. Out
 * parameters are {@link #outSlot()}s, closed after the call too: JNA's {@code ByReference}
 * objects hold native memory until the garbage collector gets round to them, which a host
 * making many calls sees as a growing C heap.
 */
public final class Abi {
    /** The ABI this binding was written for; the library's must be equal (checked at load). */
    public static final int ABI_VERSION = 1;

    /** {@code paywire_event_fn}: one event, borrowed until the callback returns. */
    public interface EventCallback extends Callback {
        void invoke(Pointer eventJson, Pointer userData);
    }

    /** {@code paywire_free_fn}: called exactly once per handler's user data. */
    public interface FreeCallback extends Callback {
        void invoke(Pointer userData);
    }

    /** The exported functions, one for one with paywire.h. */
    public interface Library extends com.sun.jna.Library {
        int paywire_abi_version();

        /** Static storage: never freed. */
        Pointer paywire_version();

        /** Static storage: never freed. */
        Pointer paywire_status_name(int status);

        void paywire_string_free(Pointer string);

        int paywire_client_new(Pointer configJson, Pointer outClient, Pointer outJson);

        void paywire_client_free(Pointer client);

        int paywire_client_call(Pointer client, Pointer method, Pointer paramsJson, Pointer outJson);

        int paywire_client_call_async(Pointer client, Pointer method, Pointer paramsJson, Pointer outCallId);

        int paywire_client_set_event_handler(Pointer client, EventCallback fn, Pointer userData,
                                             FreeCallback userDataFree);

        int paywire_client_poll(Pointer client, int timeoutMs, Pointer outJson);
    }

    private static volatile Library loaded;

    private Abi() {
    }

    /**
     * The library, found and checked on first use (see {@link LibraryLocator}). A failure is
     * thrown again on every call rather than hidden behind a class-initialization error.
     */
    public static Library library() {
        Library library = loaded;
        if (library == null) {
            synchronized (Abi.class) {
                if (loaded == null) {
                    loaded = LibraryLocator.load();
                }
                library = loaded;
            }
        }
        return library;
    }

    /** Eight zeroed bytes for an out parameter (a pointer or a uint64); close it after reading. */
    public static Memory outSlot() {
        Memory slot = new Memory(8);
        slot.setLong(0, 0);
        return slot;
    }

    /** The path the library was loaded from (loading it first if need be). */
    public static String libraryPath() {
        library();
        return LibraryLocator.loadedPath;
    }

    /** Copies the string an out slot received, then releases it; null for NULL. */
    public static String takeString(Memory outSlot) {
        return takeString(outSlot.getPointer(0));
    }

    /** Copies a string the library returned, then releases it; null for NULL. */
    public static String takeString(Pointer string) {
        if (string == null) {
            return null;
        }
        try {
            return string.getString(0, "UTF-8");
        } finally {
            library().paywire_string_free(string);
        }
    }

    /** A static string of the library (version, status names), never freed. */
    public static String staticString(Pointer string) {
        return string == null ? null : string.getString(0, "UTF-8");
    }

    /** NUL-terminated native copy of {@code bytes} (null stays NULL); close it after the call. */
    public static Memory cString(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        Memory memory = new Memory(bytes.length + 1L);
        memory.write(0, bytes, 0, bytes.length);
        memory.setByte(bytes.length, (byte) 0);
        return memory;
    }

    /** {@link #cString(byte[])} of a Java string's UTF-8 bytes. */
    public static Memory cString(String text) {
        return text == null ? null : cString(text.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code paywire_status_name}: "INVALID_UTF8" for -3, "UNKNOWN" for a number it lacks. */
    public static String statusName(int status) {
        return staticString(library().paywire_status_name(status));
    }
}
