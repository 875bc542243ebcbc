package dev.paywire;

import static dev.paywire.TestMain.check;
import static dev.paywire.TestMain.equal;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Finding the library, in a fresh JVM each time (a JVM loads it once). */
final class LibraryLoadingTest {
    private LibraryLoadingTest() {
    }

    /** Loads the library and prints the path it came from; what the checks below start. */
    public static void main(String[] arguments) {
        try {
            System.out.println(Abi.libraryPath());
        } catch (LibraryNotFoundException error) {
            System.err.println(error.getMessage());
            System.exit(3);
        }
    }

    @TestMain.Check
    public static void checkoutFindsItsOwnBuildWithoutSettings() throws Exception {
        Result result = loadIn(null);
        equal(0, result.exit, "exit status; stderr: " + result.stderr);
        equal(TestMain.root().resolve("build/lib/libpaywire.so." + Abi.ABI_VERSION).toString(), result.stdout.trim(), "path");
    }

    @TestMain.Check
    public static void missingExplicitLibraryIsAClearError() throws Exception {
        Path missing = Files.createTempDirectory("paywire-java").resolve("missing.so");
        Result result = loadIn(missing.toString());
        equal(3, result.exit, "exit status");
        check(result.stderr.contains("libpaywire not found; set PAYWIRE_LIBRARY"), "message: " + result.stderr);
        check(result.stderr.contains(missing.toString()), "names what was tried: " + result.stderr);
    }

    @TestMain.Check
    public static void libraryOfAnotherAbiIsRefused() throws Exception {
        Path folder = Files.createTempDirectory("paywire-java");
        Path source = folder.resolve("fake.c");
        Files.write(source, "unsigned paywire_abi_version(void) { return 2; }\n".getBytes(StandardCharsets.UTF_8));
        Path fake = folder.resolve("libpaywire.so.2");
        Process compiler = new ProcessBuilder("cc", "-shared", "-fPIC", source.toString(), "-o", fake.toString()).inheritIO().start();
        equal(0, compiler.waitFor(), "cc built the fake library");
        Result result = loadIn(fake.toString());
        equal(3, result.exit, "exit status");
        check(result.stderr.contains("has ABI 2, this binding needs ABI 1"), "message: " + result.stderr);
    }

    private static final class Result {
        int exit;
        String stdout;
        String stderr;
    }

    /** Runs {@link #main} in a new JVM from a temporary folder, with PAYWIRE_LIBRARY set or not. */
    private static Result loadIn(String explicitLibrary) throws IOException, InterruptedException {
        List<String> classPath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            classPath.add(Paths.get(entry).toAbsolutePath().toString());
        }
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder builder = new ProcessBuilder(java.toString(), "-cp", String.join(File.pathSeparator, classPath),
                LibraryLoadingTest.class.getName());
        builder.directory(Files.createTempDirectory("paywire-java-cwd").toFile());
        Map<String, String> environment = builder.environment();
        environment.remove("PAYWIRE_LIBRARY");
        if (explicitLibrary != null) {
            environment.put("PAYWIRE_LIBRARY", explicitLibrary);
        }
        Path stdout = Files.createTempFile("paywire-java", ".out");
        Path stderr = Files.createTempFile("paywire-java", ".err");
        Process process = builder.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        check(process.waitFor(60, TimeUnit.SECONDS), "the JVM finished");
        Result result = new Result();
        result.exit = process.exitValue();
        result.stdout = new String(Files.readAllBytes(stdout), StandardCharsets.UTF_8);
        result.stderr = new String(Files.readAllBytes(stderr), StandardCharsets.UTF_8);
        return result;
    }
}
