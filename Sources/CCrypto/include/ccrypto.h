/* The system's libcrypto (OpenSSL) for Ed25519 signature checks, loaded on demand.
 *
 * Response verification (config `response_verification`) checks the backend's Ed25519
 * signatures with a well-kept library instead of cryptography of the library's own. libpaywire
 * does not link libcrypto: like libcurl (Sources/CCurl), it is dlopened by the first client that
 * asks for verification, so hosts that do not pay nothing at load time and the library's NEEDED
 * list stays as it is (make check-needed). libcrypto.so.3 (OpenSSL 3) is tried first, then
 * libcrypto.so.1.1 (OpenSSL 1.1.1, the first with Ed25519 through EVP).
 *
 * Only the few EVP functions below are bound, by name, declared here from OpenSSL's documented
 * API (EVP_PKEY_new_raw_public_key(3), EVP_DigestVerifyInit(3)), so no OpenSSL header is needed
 * to build. Nothing here is exported from libpaywire.
 */
#ifndef PAYWIRE_CCRYPTO_H
#define PAYWIRE_CCRYPTO_H

#include <stddef.h>

/* Loads libcrypto and binds its functions, once per process (thread-safe; later calls return
 * the first answer). NULL on success; otherwise a static sentence saying what failed. */
const char *pw_crypto_load(void);

/* The library that was loaded (its file name), or NULL before a successful pw_crypto_load(). */
const char *pw_crypto_library(void);

/* 1 when `signature` (64 bytes) is `public_key`'s (32 bytes) Ed25519 signature of
 * `message[0..length)`; 0 when it is not, or when anything failed (libcrypto not loaded, out of
 * memory). */
int pw_ed25519_verify(const unsigned char *public_key, const unsigned char *signature, const unsigned char *message,
                      size_t length);

#endif
