package dev.paywire;

import com.sun.jna.Pointer;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one pair of native callbacks this binding ever hands to the library, and the handlers they
 * dispatch to.
 *
 * <p>JNA frees a callback's native trampoline when the Java callback object is collected; a
 * library thread calling a collected callback crashes the process. So the callbacks are two
 * static objects that live as long as the class, and what differs per handler travels as
 * {@code user_data}: a token naming a registered {@link Handler}. A handler stays registered
 * (reachable) until the library calls {@code user_data_free} for its token, which paywire.h
 * promises exactly once, after the last event it delivers to it: on replacement, on removal, or
 * in {@code paywire_client_free}. Nothing is kept longer than the library may call it.
 */
public final class NativeHandlers {
    /** What receives one handler's events; called on a library thread, one event at a time. */
    public interface Handler {
        /** One event as JSON text. */
        void onEvent(String eventJson);

        /** The library let go of this handler; no event follows. */
        void onRelease();
    }

    private static final ConcurrentHashMap<Long, Handler> REGISTERED = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT_TOKEN = new AtomicLong(1);

    /** The {@code paywire_event_fn} to pass with a token from {@link #register}. */
    public static final Abi.EventCallback EVENTS = NativeHandlers::deliver;

    /** The {@code paywire_free_fn} to pass with a token from {@link #register}. */
    public static final Abi.FreeCallback RELEASE = NativeHandlers::release;

    private NativeHandlers() {
    }

    /** Keeps {@code handler} reachable and returns the {@code user_data} that names it. */
    public static Pointer register(Handler handler) {
        long token = NEXT_TOKEN.getAndIncrement();
        REGISTERED.put(token, handler);
        return Pointer.createConstant(token);
    }

    /**
     * Forgets a handler the library never accepted (its set_event_handler call failed, so no
     * user_data_free will come for it).
     */
    public static void unregister(Pointer userData) {
        REGISTERED.remove(Pointer.nativeValue(userData));
    }

    /** Handlers the library may still call; 0 once every client is freed. */
    public static int liveCount() {
        return REGISTERED.size();
    }

    private static void deliver(Pointer eventJson, Pointer userData) {
        Handler handler = userData == null ? null : REGISTERED.get(Pointer.nativeValue(userData));
        if (handler == null || eventJson == null) {
            return;
        }
        try {
            handler.onEvent(eventJson.getString(0, "UTF-8"));
        } catch (Throwable error) {
            report(error);
        }
    }

    private static void release(Pointer userData) {
        Handler handler = userData == null ? null : REGISTERED.remove(Pointer.nativeValue(userData));
        if (handler == null) {
            return;
        }
        try {
            handler.onRelease();
        } catch (Throwable error) {
            report(error);
        }
    }

    /** An exception must not unwind into the library's thread: hand it to the JVM's handler. */
    private static void report(Throwable error) {
        Thread thread = Thread.currentThread();
        Thread.UncaughtExceptionHandler handler = thread.getUncaughtExceptionHandler();
        if (handler != null) {
            handler.uncaughtException(thread, error);
        } else {
            error.printStackTrace();
        }
    }
}
