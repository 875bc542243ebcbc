/* Loads libcrypto on demand and checks Ed25519 signatures with it (see include/ccrypto.h). */
#define _GNU_SOURCE
#include "ccrypto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* OpenSSL's NID_ED25519 (obj_mac.h), the same in 1.1.1 and 3.x. */
#define PW_NID_ED25519 1087

/* The EVP functions used, with OpenSSL's signatures; its types stay opaque. */
static struct {
    void *(*pkey_new_raw_public_key)(int type, void *engine, const unsigned char *key, size_t length);
    void (*pkey_free)(void *key);
    void *(*md_ctx_new)(void);
    void (*md_ctx_free)(void *context);
    int (*digest_verify_init)(void *context, void **pkey_context, const void *digest, void *engine, void *key);
    int (*digest_verify)(void *context, const unsigned char *signature, size_t signature_length, const unsigned char *data,
                         size_t length);
} crypto;

static const char *const libraries[] = {"libcrypto.so.3", "libcrypto.so.1.1"};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *loaded_library;
static char load_error[512];

/* dlsym into a function pointer without the object-to-function cast ISO C warns about. */
static int bind_symbol(void *library, const char *file, const char *name, void *slot, size_t size) {
    void *symbol = dlsym(library, name);
    if (symbol == NULL) {
        snprintf(load_error, sizeof load_error, "%s has no %s (OpenSSL 1.1.1 or later is needed)", file, name);
        return 0;
    }
    memcpy(slot, &symbol, size);
    return 1;
}

#define BIND(library, file, name, field) bind_symbol((library), (file), (name), &crypto.field, sizeof crypto.field)

static void load(void) {
    char tried[256] = "";
    for (size_t index = 0; index < sizeof libraries / sizeof libraries[0]; index++) {
        const char *file = libraries[index];
        void *library = dlopen(file, RTLD_NOW | RTLD_LOCAL);
        if (library == NULL) {
            size_t used = strlen(tried);
            snprintf(tried + used, sizeof tried - used, "%s%s", used ? ", " : "", file);
            continue;
        }
        /* Kept open for the life of the process, as OpenSSL expects. */
        int ok = BIND(library, file, "EVP_PKEY_new_raw_public_key", pkey_new_raw_public_key) &&
                 BIND(library, file, "EVP_PKEY_free", pkey_free) && BIND(library, file, "EVP_MD_CTX_new", md_ctx_new) &&
                 BIND(library, file, "EVP_MD_CTX_free", md_ctx_free) &&
                 BIND(library, file, "EVP_DigestVerifyInit", digest_verify_init) &&
                 BIND(library, file, "EVP_DigestVerify", digest_verify);
        if (ok) loaded_library = file;
        return;
    }
    snprintf(load_error, sizeof load_error, "libcrypto could not be loaded (tried %s)", tried);
}

const char *pw_crypto_load(void) {
    if (pthread_once(&load_once, load) != 0) return "libcrypto could not be loaded (pthread_once failed)";
    return loaded_library ? NULL : load_error;
}

const char *pw_crypto_library(void) { return loaded_library; }

int pw_ed25519_verify(const unsigned char *public_key, const unsigned char *signature, const unsigned char *message,
                      size_t length) {
    if (loaded_library == NULL) return 0;
    void *key = crypto.pkey_new_raw_public_key(PW_NID_ED25519, NULL, public_key, 32);
    if (key == NULL) return 0;
    void *context = crypto.md_ctx_new();
    int valid = 0;
    /* Ed25519 is one-shot (no digest to name): EVP_DigestVerifyInit with a NULL digest, then
     * EVP_DigestVerify over the whole message, which returns 1 only for a valid signature. */
    if (context != NULL && crypto.digest_verify_init(context, NULL, NULL, NULL, key) == 1) {
        valid = crypto.digest_verify(context, signature, 64, message, length) == 1;
    }
    if (context != NULL) crypto.md_ctx_free(context);
    crypto.pkey_free(key);
    return valid;
}
