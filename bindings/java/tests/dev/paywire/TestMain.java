package dev.paywire;

import com.google.gson.JsonObject;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The binding's tests: every {@code @Check} method of the classes below, in name order, each
 * named after the behaviour it checks. A small runner of our own instead of JUnit keeps the
 * binding's test needs to what Debian's JDK, JNA and gson already give. Ends with the line
 * {@code java-binding: N passed, N failed}; exits 1 when any failed.
 */
public final class TestMain {
    /** Marks a test method: public, static, no arguments, throws on failure. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Check {
    }

    private static final Class<?>[] SUITES = {
        ClientTest.class, ErrorMappingTest.class, AsyncTest.class, HandlerTest.class,
        OwnershipTest.class, LibraryLoadingTest.class, TypedTest.class, RoundTripTest.class, WarningsTest.class,
    };

    private TestMain() {
    }

    public static void main(String[] arguments) throws Exception {
        int passed = 0;
        int failed = 0;
        for (Class<?> suite : SUITES) {
            Method[] methods = suite.getDeclaredMethods();
            Arrays.sort(methods, Comparator.comparing(Method::getName));
            for (Method method : methods) {
                if (!method.isAnnotationPresent(Check.class) || arguments.length > 0 && !Arrays.asList(arguments).contains(method.getName())) {
                    continue;
                }
                long start = System.nanoTime();
                try {
                    method.invoke(null);
                    passed++;
                    System.out.printf("ok   %s.%s (%d ms)%n", suite.getSimpleName(), method.getName(), (System.nanoTime() - start) / 1_000_000);
                } catch (InvocationTargetException error) {
                    failed++;
                    System.out.printf("FAIL %s.%s: %s%n", suite.getSimpleName(), method.getName(), error.getCause());
                    error.getCause().printStackTrace(System.out);
                }
            }
        }
        System.out.printf("java-binding: %d passed, %d failed%n", passed, failed);
        System.exit(failed == 0 && passed > 0 ? 0 : 1);
    }

    // ------------------------------------------------------------------ helpers for the suites

    /** The repository: -Dpaywire.root, else the working directory (make runs from the root). */
    static Path root() {
        return Paths.get(System.getProperty("paywire.root", "")).toAbsolutePath();
    }

    /** examples/config.json with its fallback bundle made absolute. */
    static JsonObject exampleConfig() throws Exception {
        String text = new String(Files.readAllBytes(root().resolve("examples/config.json")), StandardCharsets.UTF_8);
        JsonObject config = Json.parse(text).getAsJsonObject();
        JsonObject fallback = new JsonObject();
        fallback.addProperty("path", root().resolve("examples/bundle.json").toString());
        config.add("fallback", fallback);
        return config;
    }

    static Client exampleClient() throws Exception {
        return new Client(exampleConfig());
    }

    static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    static void equal(Object expected, Object actual, String what) {
        if (expected == null ? actual != null : !expected.equals(actual)) {
            throw new AssertionError(what + ": expected " + expected + ", got " + actual);
        }
    }

    /** Runs {@code body} and returns the PaywireException it must throw. */
    static PaywireException raises(ThrowingRunnable body) throws Exception {
        try {
            body.run();
        } catch (PaywireException error) {
            return error;
        }
        throw new AssertionError("expected a PaywireException");
    }

    /** A test body that may throw. */
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
