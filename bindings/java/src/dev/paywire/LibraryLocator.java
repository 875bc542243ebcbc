package dev.paywire;

import com.sun.jna.Native;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds libpaywire the way the Python binding does, so one checkout or one install serves every
 * host the same way:
 * <ol>
 *   <li>{@code PAYWIRE_LIBRARY}, when set, is the only candidate;</li>
 *   <li>{@code build/lib/libpaywire.so.<ABI>} beside any folder above this binding's jar (a
 *       checkout finds its own build with no setting);</li>
 *   <li>the system's search ({@code LD_LIBRARY_PATH}, {@code jna.library.path}, ld.so's cache);</li>
 *   <li>{@code lib/libpaywire.so.<ABI>} under {@code PAYWIRE_PREFIX}, {@code /usr/local}, {@code /usr}.</li>
 * </ol>
 * The first that loads is checked: a library of another ABI is refused, not skipped, because a
 * wrong library found first is a setup error to fix rather than to paper over.
 */
final class LibraryLocator {
    static volatile String loadedPath;

    private LibraryLocator() {
    }

    static Abi.Library load() {
        List<String> tried = new ArrayList<>();
        for (String candidate : candidates()) {
            if (candidate.contains(File.separator) && !new File(candidate).exists()) {
                tried.add(candidate);
                continue;
            }
            Abi.Library library;
            try {
                library = Native.load(candidate, Abi.Library.class);
            } catch (UnsatisfiedLinkError error) {
                tried.add(candidate + " (" + firstLine(error.getMessage()) + ")");
                continue;
            }
            int version = library.paywire_abi_version();
            if (version != Abi.ABI_VERSION) {
                throw new LibraryNotFoundException(candidate + " has ABI " + version
                        + ", this binding needs ABI " + Abi.ABI_VERSION);
            }
            loadedPath = candidate;
            return library;
        }
        throw new LibraryNotFoundException("libpaywire not found; set PAYWIRE_LIBRARY. Tried: " + String.join("; ", tried));
    }

    static List<String> candidates() {
        String fileName = "libpaywire.so." + Abi.ABI_VERSION;
        List<String> candidates = new ArrayList<>();
        String explicit = System.getenv("PAYWIRE_LIBRARY");
        if (explicit != null && !explicit.isEmpty()) {
            candidates.add(explicit);
            return candidates;
        }
        for (Path folder = codeLocation(); folder != null; folder = folder.getParent()) {
            candidates.add(folder.resolve("build").resolve("lib").resolve(fileName).toString());
        }
        candidates.add("paywire");
        String prefix = System.getenv("PAYWIRE_PREFIX");
        for (String root : new String[] {prefix, "/usr/local", "/usr"}) {
            if (root != null && !root.isEmpty()) {
                candidates.add(Paths.get(root, "lib", fileName).toString());
            }
        }
        return candidates;
    }

    /** The jar (or class folder) this binding was loaded from; null when the JVM does not say. */
    private static Path codeLocation() {
        try {
            java.security.CodeSource source = LibraryLocator.class.getProtectionDomain().getCodeSource();
            return source == null ? null : Paths.get(source.getLocation().toURI()).toAbsolutePath();
        } catch (URISyntaxException | SecurityException | IllegalArgumentException error) {
            return null;
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "not loadable";
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
