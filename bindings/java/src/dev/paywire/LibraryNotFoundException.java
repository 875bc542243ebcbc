package dev.paywire;

/** libpaywire could not be found, did not load, or has an ABI this binding was not written for. */
public final class LibraryNotFoundException extends UnsatisfiedLinkError {
    private static final long serialVersionUID = 1L;

    LibraryNotFoundException(String message) {
        super(message);
    }
}
