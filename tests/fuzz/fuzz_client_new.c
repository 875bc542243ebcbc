/*
 * Fuzz target: paywire_client_new. Input: the config text. A client that is created answers
 * get_sdk_version, has its events polled, and is freed. (No call that could use the network:
 * a config may name a built-in HTTP transport and any host.)
 *
 * A config names files (`storage_dir` is created and written, `fallback.path` is read), so the
 * fuzzer could invent "/etc". The target therefore works in a scratch directory
 * (PAYWIRE_FUZZ_SCRATCH, else a new one under /tmp) and, when run as root, makes each input's
 * file access as the unprivileged user `nobody`: setfsuid changes only the calling thread's
 * filesystem identity, and the calls below run on it, so the fuzzer's own corpus and crash
 * files are still written as root. Relative paths in the seeds (`store`, `bundles/...`)
 * resolve inside the scratch directory, which tests/fuzz/run.py fills.
 */
#include "fuzz_common.h"

#include <sys/fsuid.h>
#include <sys/stat.h>
#include <unistd.h>

#define UNPRIVILEGED_ID 65534 /* nobody / nogroup */

static int sandboxed;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    static char scratch_template[] = "/tmp/paywire-fuzz-XXXXXX";
    fuzz_trace_file(); /* opened now, while file access is still the caller's own */
    const char *scratch = getenv("PAYWIRE_FUZZ_SCRATCH");
    if (scratch == NULL) scratch = mkdtemp(scratch_template);
    else mkdir(scratch, 0755);
    if (scratch == NULL || chdir(scratch) != 0) fuzz_die("cannot enter the scratch directory");
    if (geteuid() == 0) {
        if (chown(".", UNPRIVILEGED_ID, UNPRIVILEGED_ID) != 0) fuzz_die("cannot hand the scratch directory to nobody");
        sandboxed = 1;
    }
    fprintf(stderr, "fuzz_client_new: scratch directory %s%s\n", scratch, sandboxed ? ", file access as nobody" : "");
    return 0;
}

static void file_access_as_nobody(int on) {
    if (!sandboxed) return;
    uid_t id = on ? UNPRIVILEGED_ID : 0;
    setfsgid(id);
    setfsuid(id);
    if ((uid_t)setfsuid((uid_t)-1) != id) fuzz_die("setfsuid did not take effect");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_buffer config = {0};
    buffer_append(&config, (const char *)data, size);
    file_access_as_nobody(1);
    paywire_client_t *client = NULL;
    char *out = NULL;
    paywire_status_t status = traced_client_new(config.bytes, &client, &out);
    fuzz_check_envelope(status, out);
    paywire_string_free(out);
    if ((status == PAYWIRE_OK) != (client != NULL)) fuzz_die("out_client disagrees with the status");
    if (client) {
        fuzz_call(client, "get_sdk_version", NULL, NULL);
        fuzz_drain(client);
        traced_client_free(client);
    }
    file_access_as_nobody(0);
    buffer_release(&config);
    return 0;
}
